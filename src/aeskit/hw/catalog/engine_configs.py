"""Mode-engine configurations a user would pick (issue 47): the engine's ``Modes``
mask and ``Streams`` on a core, each synthesized by the report as ``ak_mode_sys``
(the engine and the core, no bus) and listed in ``report.json``'s ``systems``.
``aeskit systems --engines`` lists them. See docs/report.md."""

from __future__ import annotations

from aeskit.hw.registry import ALL_MODES, EngineConfig

ORDER = 55

ENGINE_CONFIGS: tuple[EngineConfig, ...] = (
    EngineConfig(
        name="ecb_cbc_ctr_1s",
        modes=0x007,
        streams=1,
        description="ECB, CBC and CTR, one stream: plain confidentiality",
    ),
    EngineConfig(
        name="p001_2s",
        modes=0x03F,
        streams=2,
        description="Paper 001's modes (ECB, CBC, CTR, CFB-128, OFB, CCM; what AeadModes = 0 "
                    "builds), two streams",
    ),
    EngineConfig(
        name="all_2s",
        modes=ALL_MODES,
        streams=2,
        description="Every mode (paper 001's, GCM/GMAC, CMAC, XTS), two streams: "
                    "the harness default",
    ),
)
