import torch

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def run(sol, inputs):
    dt = DTYPES[inputs["dtype"]]
    x, y = inputs["x"], inputs["y"]
    w = inputs["w"].to(dt).requires_grad_(True)  # the model's weights live in low precision
    b = inputs["b"].to(dt).requires_grad_(True)
    opt = sol.MixedPrecisionSGD([w, b], **inputs["hp"])
    losses, taken, scales, masters, params = [], [], [], [], []
    for event in inputs["script"]:  # "ok", "inf", "nan", or "inf-b" (only b's gradient overflows)
        w.grad = None
        b.grad = None
        loss = (x @ w.float() + b.float() - y).pow(2).mean()  # fp32 compute; the grads arrive in w's dtype
        losses.append(loss.detach().clone())
        if event in ("inf", "nan"):
            loss = loss + w.float().sum() * float(event)
        elif event == "inf-b":
            loss = loss + b.float()[-1] * float("inf")
        opt.scale_loss(loss).backward()
        taken.append(bool(opt.step()))
        scales.append(float(opt.get_scale()))
        masters.append(torch.cat([m.detach().reshape(-1) for m in opt.master_params()]).clone())
        params.append(torch.cat([w.detach().reshape(-1), b.detach().reshape(-1)]).clone())
    return {"taken": taken, "scale": scales, "loss": torch.stack(losses), "master": torch.stack(masters),
            "params": torch.stack(params)}
