from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    rw = inputs["router_weight"].clone().requires_grad_(True)
    ew = inputs["expert_weight"].clone().requires_grad_(True)
    y, aux, index = sol.switch_moe(x, rw, ew, inputs["capacity_factor"])
    zero = (x.sum() + rw.sum() + ew.sum()) * 0.0  # every input takes part (a correct solution may leave one unused)
    gx, grw, gew = vjp((y + zero, aux + zero), (x, rw, ew), seed=1)
    return {"expert_index": index, "y": y, "aux_loss": aux, "grad_x": gx, "grad_router_weight": grw,
            "grad_expert_weight": gew}
