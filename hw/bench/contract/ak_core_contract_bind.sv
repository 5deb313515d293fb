// ak_core_contract_bind: binds ak_core_contract_chk into every instance of the core
// module `AK_CC_CORE, with the claims of its registry entry as defines (set by
// aeskit.sim.contract / aeskit.formal.contract from aeskit.hw.registry):
//   AK_CC_CORE      the core's module name
//   AK_CC_SETUP128, AK_CC_SETUP192, AK_CC_SETUP256  claimed key setup, cycles
//   AK_CC_KEYSIZES  3-bit mask of the key sizes (bit 0 128, bit 1 192, bit 2 256)
//   AK_CC_DECRYPT   1 if the core decrypts
//   AK_CC_DEPTH     shadow FIFO depth (power of two >= the blocks in flight)
//   AK_CC_CHECKDATA 1 to compare out_data_o under stall
// The checker's ports are the core's port names, so `.*` connects them.

bind `AK_CC_CORE ak_core_contract_chk #(
  .TagWidth (TagWidth),
  .Setup128 (`AK_CC_SETUP128),
  .Setup192 (`AK_CC_SETUP192),
  .Setup256 (`AK_CC_SETUP256),
  .KeySizes (`AK_CC_KEYSIZES),
  .Decrypt  (`AK_CC_DECRYPT),
  .Depth    (`AK_CC_DEPTH),
  .CheckData(`AK_CC_CHECKDATA)
) u_core_contract_chk (.*);
