// Test fixture of CoreSpec.source_hash: an include file the hash must cover.
`define AK_FX_HASH_BIT 1'b1
