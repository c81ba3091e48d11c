from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["logits"].clone().requires_grad_(True)
    loss = sol.smoothed_token_loss(x, inputs["target"].clone(), inputs["label_smoothing"],
                                   ignore_index=inputs["ignore_index"])
    (grad,) = vjp(loss, x, seed=1)
    return {"loss": loss, "logits_grad": grad}
