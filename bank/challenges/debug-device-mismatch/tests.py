import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("float64", {"steps": 3, "n": 4, "time": 3, "d": 2, "h": 3, "c": 3, "dtype": "float64"}, public=True,
             seed=1, what="a float64 model"),
        Case("float64-longer", {"steps": 5, "n": 5, "time": 4, "d": 3, "h": 4, "c": 2, "dtype": "float64"},
             public=True, seed=2, what="a float64 model, five steps"),
        Case("float32", {"steps": 4, "n": 4, "time": 3, "d": 2, "h": 4, "c": 3, "dtype": "float32"}, seed=3,
             shrink=("steps",), what="the same model in float32: nothing may assume float64"),
        Case("meta-device", {"steps": 1, "n": 4, "time": 3, "d": 2, "h": 3, "c": 3, "device": "meta"}, seed=4,
             what="a dry run on the meta device: nothing may be created on the CPU"),
        Case("one-time-step", {"steps": 4, "n": 3, "time": 1, "d": 3, "h": 5, "c": 4, "dtype": "float64"}, seed=5,
             shrink=("steps",), what="sequences of length 1"),
        Case("float32-wide", {"steps": 3, "n": 6, "time": 2, "d": 4, "h": 8, "c": 5, "dtype": "float32"}, seed=6,
             shrink=("steps",), what="a wider float32 model with five classes"),
    ]


def make_inputs(seed, steps, n, time, d, h, c, dtype="float64", device="cpu"):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    s = h ** -0.5
    return {"xs": rnd(steps, n, time, d), "ys": torch.randint(0, c, (steps, n), generator=g),
            "val_x": rnd(3, time, d), "lr": 0.1, "dtype": dtype, "device": device,
            "class_weights": [round(0.5 + 0.25 * i, 2) for i in range(c)],
            "w_ih": rnd(h, d, scale=s), "w_hh": rnd(h, h, scale=s), "b_ih": rnd(h, scale=0.1), "b_hh": rnd(h, scale=0.1),
            "w_out": rnd(c, h, scale=s), "b_out": rnd(c, scale=0.1)}
