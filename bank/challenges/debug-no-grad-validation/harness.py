import torch
import torch.nn as nn
import torch.nn.functional as F

from torchdojo.judge.testing import vjp


def _linear(fan_in, fan_out):
    # no random init: the harness must not touch torch's global RNG (weights are loaded below)
    return nn.utils.skip_init(nn.Linear, fan_in, fan_out, dtype=torch.float64)


def _model(inputs):
    d, h, c = inputs["w1"].shape[1], inputs["w1"].shape[0], inputs["w2"].shape[0]
    model = nn.Sequential(_linear(d, h), nn.Tanh(), _linear(h, c))
    with torch.no_grad():
        for p, k in zip(model.parameters(), ("w1", "b1", "w2", "b2"), strict=True):
            p.copy_(inputs[k])
    return model


def _graph_nodes(t):
    """Autograd nodes reachable from t's grad_fn: what keeping t alive keeps alive."""
    seen, todo = set(), [getattr(t, "grad_fn", None)]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        todo.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def run(sol, inputs):
    model = _model(inputs)
    xs, ys = inputs["xs"], inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    saved = [0]

    def pack(t):
        saved[0] += 1
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        res = sol.evaluate(model, batches)
    probs = res["probs"]
    out = {"loss": float(res["loss"]), "accuracy": float(res["accuracy"]), "probs": probs.detach().clone(),
           "probs_requires_grad": bool(probs.requires_grad), "graph_nodes_kept_by_probs": _graph_nodes(probs),
           "tensors_saved_for_backward_during_evaluate": saved[0]}
    # training goes on after validation: a gradient step must still work
    model.train()
    x, y = batches[0]
    loss = F.cross_entropy(model(x), y)
    out["train_step_grads"] = list(vjp(loss, tuple(model.parameters()), seed=1))
    out["train_step_grads"] = torch.cat([g.flatten() for g in out["train_step_grads"]])
    return out
