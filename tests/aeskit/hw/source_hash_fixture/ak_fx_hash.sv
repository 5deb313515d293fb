// Test fixture of CoreSpec.source_hash (tests/aeskit/hw/test_registry.py): the test
// copies this folder, edits the copy and checks that the hash follows the content.
`include "ak_fx_hash.svh"

module ak_fx_hash (
  input  logic a_i,
  output logic y_o
);
  assign y_o = a_i ^ `AK_FX_HASH_BIT;
endmodule
