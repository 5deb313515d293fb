"""Files through the RTL: ``aeskit encrypt`` / ``decrypt`` (:mod:`~aeskit.crypt.filecrypt`)
and its fast path, the bulk harness (:mod:`~aeskit.crypt.bulk`)."""
