import torch
import torch.nn as nn


def _model(inputs, dtype):
    d, h, c = inputs["w_ih"].shape[1], inputs["w_ih"].shape[0], inputs["w_out"].shape[0]
    # skip_init: no random init, so the harness never touches torch's global RNG (weights loaded below)
    model = nn.ModuleDict({"cell": nn.utils.skip_init(nn.RNNCell, d, h, dtype=torch.float64),
                           "head": nn.utils.skip_init(nn.Linear, h, c, dtype=torch.float64)})
    with torch.no_grad():
        for p, k in ((model["cell"].weight_ih, "w_ih"), (model["cell"].weight_hh, "w_hh"),
                     (model["cell"].bias_ih, "b_ih"), (model["cell"].bias_hh, "b_hh"),
                     (model["head"].weight, "w_out"), (model["head"].bias, "b_out")):
            p.copy_(inputs[k])
    return model.to(dtype)


def run(sol, inputs):
    weights = inputs["class_weights"]
    if inputs["device"] == "meta":
        # a dry run on the meta device (shapes, no data): a genuine device mismatch if anything
        # is created on the CPU
        model = _model(inputs, torch.float64).to("meta")
        x, y = inputs["xs"][0].to("meta"), inputs["ys"][0].to("meta")
        logits = sol.predict(model, x)
        loss = sol.weighted_loss(logits, y, weights)
        loss.backward()
        return {"logits": [str(logits.device), str(logits.dtype), list(logits.shape)],
                "loss": [str(loss.device), str(loss.dtype), list(loss.shape)],
                "head_grad_device": str(model["head"].weight.grad.device)}
    dtype = getattr(torch, inputs["dtype"])
    model = _model(inputs, dtype)
    xs, ys = inputs["xs"].to(dtype), inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    losses = sol.train(model, batches, inputs["lr"], weights)
    out = {"losses": [float(v) for v in losses]}
    for name, p in model.named_parameters():
        out[f"final.{name}"] = p.detach().clone()
    with torch.no_grad():
        out["val_logits"] = sol.predict(model, inputs["val_x"].to(dtype))
    return out
