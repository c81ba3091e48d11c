import torch

from torchdojo.judge.testing import Case


def _script(s):
    names = {".": "ok", "I": "inf", "N": "nan", "B": "inf-b"}
    return [names[c] for c in s]


def cases():
    return [
        Case("clean-growth", {"script": ".....", "hp": {"init_scale": 8.0, "growth_interval": 2}}, public=True,
             seed=1, what="no overflow: the scale doubles every 2 clean steps"),
        Case("one-overflow", {"script": "..I..", "hp": {"init_scale": 1024.0, "growth_interval": 3}},
             public=True, seed=2, what="an inf gradient: step skipped, scale halved"),
        Case("overflow-resets-counter", {"script": "..I..I...", "hp": {"init_scale": 64.0, "growth_interval": 3}},
             seed=3, what="an overflow resets the count of clean steps"),
        Case("growth-resets-counter", {"script": "........", "hp": {"init_scale": 1.0, "growth_interval": 3}},
             seed=4, what="after growing, count growth_interval clean steps again"),
        Case("consecutive-overflows", {"script": ".IIN.IN..", "hp": {"init_scale": 2.0**16, "growth_interval": 2}},
             seed=5, what="inf and NaN in a row: the scale halves each time, no step is taken"),
        Case("one-param-overflows", {"script": "..B...", "hp": {"init_scale": 32.0, "growth_interval": 2}},
             seed=6, what="only the second parameter's gradient overflows: the whole step is skipped"),
        Case("implicit-unscale", {"script": "..I.N...", "explicit_unscale": False,
                                  "hp": {"init_scale": 256.0, "growth_interval": 2}}, seed=7,
             what="step() unscales by itself when unscale_() was not called"),
        Case("custom-factors", {"script": "....I.....I",
                                "hp": {"init_scale": 4.0, "growth_factor": 4.0, "backoff_factor": 0.25,
                                       "growth_interval": 4}}, seed=8,
             what="growth_factor 4, backoff_factor 0.25, growth_interval 4"),
    ]


def make_inputs(seed, script, hp, explicit_unscale=True):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return {"x": r(6, 3), "y": r(6), "w": r(3), "b": 0.1 * r(2), "lr": 0.1, "script": _script(script),
            "hp": dict(hp), "explicit_unscale": explicit_unscale}


def oracle(inputs):
    import types
    from functools import partial
    from pathlib import Path

    mod = types.ModuleType("scaler_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod.run(types.SimpleNamespace(GradScaler=partial(torch.amp.GradScaler, "cpu")), inputs)
