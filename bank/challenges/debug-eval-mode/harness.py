import torch
import torch.nn as nn


class _SeededDropout(nn.Dropout):
    """nn.Dropout drawing its masks from the harness's own generator instead of torch's global
    RNG, so the judge's runs are reproducible (and never disturbed by, or disturb, anything else)."""

    def __init__(self, p, generator):
        super().__init__(p)
        self.generator = generator

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        keep = torch.rand(x.shape, generator=self.generator, dtype=x.dtype) >= self.p
        return x * keep / (1 - self.p)


def _model(inputs):
    d, h, c = inputs["w1"].shape[1], inputs["w1"].shape[0], inputs["w2"].shape[0]
    g = torch.Generator().manual_seed(inputs["rng_seed"])
    linear = lambda i, o: nn.utils.skip_init(nn.Linear, i, o, dtype=torch.float64)  # noqa: E731 - no global RNG
    model = nn.Sequential(linear(d, h), nn.BatchNorm1d(h, dtype=torch.float64), nn.ReLU(),
                          _SeededDropout(inputs["p"], g), linear(h, c))
    with torch.no_grad():
        for k, p in (("w1", model[0].weight), ("b1", model[0].bias), ("w2", model[4].weight), ("b2", model[4].bias)):
            p.copy_(inputs[k])
    return model


def run(sol, inputs):
    model = _model(inputs)
    xs, ys = inputs["xs"], inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    history = sol.fit(model, batches, inputs["val_x"].clone(), inputs["val_y"].clone(), inputs["lr"])
    out = {"history": [{"loss": float(r["loss"]), "accuracy": float(r["accuracy"])} for r in history]}
    # the same validation twice more (dropout would draw new masks); it must not touch the model
    before = {k: v.detach().clone() for k, v in model.state_dict().items()}
    for tag in ("a", "b"):
        r = sol.evaluate(model, inputs["val_x"].clone(), inputs["val_y"].clone())
        out[f"final_eval_{tag}"] = {"loss": float(r["loss"]), "accuracy": float(r["accuracy"])}
    out["model_changed_by_evaluate"] = any(not torch.equal(before[k], v) for k, v in model.state_dict().items())
    for name, t in model.state_dict().items():
        out[f"final.{name}"] = t.detach().clone()
    return out
