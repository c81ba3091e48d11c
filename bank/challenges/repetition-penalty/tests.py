import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True}, public=True, what="the worked example"),
        Case("batch-padded", {"b": 3, "v": 10, "t": 6, "rep": 1.3, "freq": 0.4, "pres": 0.6}, seed=1, public=True,
             what="three rows, right-padded with -1, all three penalties"),
        Case("repeats-rep-only", {"b": 4, "v": 5, "t": 12, "rep": 1.5}, seed=2, shrink=("b",),
             what="tokens seen many times: the repetition penalty is applied once, not once per occurrence"),
        Case("negative-logits", {"b": 3, "v": 12, "t": 8, "rep": 2.0, "shift": -3.0}, seed=3, shrink=("b",),
             what="mostly negative logits: they are multiplied, not divided, by the penalty"),
        Case("frequency-only", {"b": 3, "v": 8, "t": 15, "freq": 0.7}, seed=4, shrink=("b",),
             what="frequency penalty scales with the count"),
        Case("presence-only", {"b": 3, "v": 8, "t": 15, "pres": 1.1}, seed=5, shrink=("b",),
             what="presence penalty is paid once per seen token"),
        Case("left-padded", {"b": 4, "v": 9, "t": 7, "rep": 1.2, "freq": 0.3, "pres": 0.5, "left": True}, seed=6,
             shrink=("b",), what="left padding, a row that is all padding, and the last vocabulary token unseen"),
        Case("empty-history", {"b": 2, "v": 7, "t": 0, "rep": 1.8, "freq": 0.5, "pres": 0.5}, seed=7,
             what="T = 0: nothing is penalised"),
        Case("float32-large", {"b": 5, "v": 300, "t": 40, "rep": 1.1, "freq": 0.2, "pres": 0.3, "scale": 30.0,
                               "dtype": "float32"}, seed=8, shrink=("b",),
             what="float32 logits, larger vocabulary; the result keeps float32"),
        Case("penalty-below-one", {"b": 2, "v": 6, "t": 5, "rep": 0.75, "freq": -0.5}, seed=9,
             what="repetition_penalty < 1 and a negative frequency penalty encourage repetition"),
    ]


def make_inputs(seed, example=False, b=1, v=2, t=0, rep=1.0, freq=0.0, pres=0.0, shift=0.0, scale=2.0,
                left=False, dtype="float64"):
    if example:
        return {"logits": torch.tensor([[2.0, -1.0, 0.5, -2.0, 0.0, 1.0]], dtype=torch.float64),
                "history": torch.tensor([[0, 1, 1, 4, -1, -1]]), "repetition_penalty": 2.0,
                "frequency_penalty": 0.5, "presence_penalty": 0.25}
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(b, v, generator=g, dtype=torch.float64) * scale + shift).to(getattr(torch, dtype))
    hist = torch.randint(0, max(v - 1, 1), (b, t), generator=g)  # token v-1 never occurs
    lengths = torch.randint(0, t + 1, (b,), generator=g)
    if b > 1:
        lengths[0] = t  # one full row
    if left and b > 2:
        lengths[1] = 0  # one row with no history at all
    pos = torch.arange(t)
    pad = pos[None, :] < (t - lengths)[:, None] if left else pos[None, :] >= lengths[:, None]
    hist = hist.masked_fill(pad, -1)
    return {"logits": logits, "history": hist, "repetition_penalty": rep, "frequency_penalty": freq,
            "presence_penalty": pres}


def check(inputs, got):
    after = got["input_after_call"]
    if after.shape != inputs["logits"].shape or not torch.equal(after, inputs["logits"]):
        return "the logits passed in were modified in place: return a new tensor instead"
    return None


def oracle(inputs):
    """Row by row in plain Python with a dict of counts."""
    from collections import Counter

    logits = inputs["logits"]
    rows = []
    for row, hist in zip(logits.tolist(), inputs["history"].tolist(), strict=True):
        counts = Counter(tok for tok in hist if tok != -1)
        new = []
        for v, x in enumerate(row):
            c = counts.get(v, 0)
            if c:
                x = x / inputs["repetition_penalty"] if x > 0 else x * inputs["repetition_penalty"]
                x = x - inputs["frequency_penalty"] * c - inputs["presence_penalty"]
            new.append(x)
        rows.append(new)
    out = torch.tensor(rows, dtype=torch.float64).reshape(logits.shape).to(logits.dtype)
    return {"logits": out, "input_after_call": logits.clone()}
