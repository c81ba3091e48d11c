import torch


def run(sol, inputs):
    dt = getattr(torch, inputs["dtype"])
    named = [(name, torch.zeros(shape, dtype=dt, requires_grad=trainable)) for name, shape, trainable in inputs["spec"]]
    world = inputs["world"]
    rank_grads = [{name: inputs["grad:" + name][r].clone() for name, _, trainable in inputs["spec"] if trainable}
                  for r in range(world)]
    calls = []

    def all_reduce(buffers):  # the collective: SUM over ranks of one flat buffer per rank
        buffers = list(buffers)
        if len(buffers) != world or any(b.dim() != 1 or b.shape != buffers[0].shape for b in buffers):
            raise ValueError("all_reduce takes one 1-D buffer per rank, all of the same length")
        calls.append(int(buffers[0].numel()))
        return torch.stack(buffers).sum(0)

    cap = inputs["cap"]
    buckets_only = sol.assign_buckets(named, cap)
    buckets, grads = sol.bucketed_all_reduce(named, rank_grads, cap, all_reduce)
    out = {"assign_buckets": [list(b) for b in buckets_only], "buckets": [list(b) for b in buckets],
           "all_reduce_numels": calls, "grad_names": sorted(grads)}
    for name, _, trainable in inputs["spec"]:
        if trainable and name in grads:
            out["avg:" + name] = grads[name]
    return out
