from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["logits"].clone().requires_grad_(True)
    loss = sol.cross_entropy(x, inputs["target"].clone(), ignore_index=inputs["ignore_index"],
                             label_smoothing=inputs["label_smoothing"])
    (grad,) = vjp(loss, x, seed=1)
    return {"loss": loss, "logits_grad": grad}
