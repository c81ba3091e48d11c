import torch


def _expressions(V, a0, b0, c0, chain):
    a, b, c = V(a0), V(b0), V(c0)
    # a diamond: a reaches d through b and through c
    b2 = a * 2.0 + b
    c2 = a + b2
    d = b2 * c2
    e = d.tanh() + (a * a) / (c ** 2 + 1.0) - (-b).relu() * 3.0 + 1.0 / (b * b + 2.0) - (c + c) * 0.5 + (2.0 - c) * b  # a number on the left of -
    # a long chain that reuses a and c at every link
    s = a
    for i in range(chain):
        s = (s * 0.7 + a - c * 0.1).tanh() + 0.01 * s
    f = e + s * 2 - 5.0
    f.backward()
    return [f.data, e.data, s.data, d.data], [a.grad, b.grad, c.grad], [d.grad, b2.grad, c2.grad]


def _mlp(V, inputs):
    def layer(ws, bs, xs, act):
        outs = []
        for row, bias in zip(ws, bs):
            z = bias
            for w, x in zip(row, xs):
                z = z + w * x
            outs.append(act(z))
        return outs

    params = {k: [[V(v) for v in row] for row in inputs[k].tolist()] for k in ("w1", "w2", "w3")}
    params.update({k: [V(v) for v in inputs[k].tolist()] for k in ("b1", "b2", "b3")})
    flat = [p for k in ("w1", "b1", "w2", "b2", "w3", "b3") for p in
            (sum(params[k], []) if k.startswith("w") else params[k])]
    xs, ys = inputs["x"].tolist(), inputs["y"].tolist()
    losses, first_grads = [], None
    for step in range(inputs["steps"]):
        for p in flat:
            p.grad = 0.0
        loss = 0.0
        for x, y in zip(xs, ys):
            h1 = layer(params["w1"], params["b1"], x, lambda z: z.relu())
            h2 = layer(params["w2"], params["b2"], h1, lambda z: z.tanh())
            (out,) = layer(params["w3"], params["b3"], h2, lambda z: z)
            loss = loss + (out - y) ** 2
        loss = loss / len(xs)
        loss.backward()
        losses.append(loss.data)
        if first_grads is None:
            first_grads = [p.grad for p in flat]
        for p in flat:
            p.data -= inputs["lr"] * p.grad
    return losses, first_grads, [p.data for p in flat]


def run(sol, inputs):
    t = lambda v: torch.tensor(v, dtype=torch.float64)  # noqa: E731
    vals, leaf_grads, inner_grads = _expressions(sol.Value, *inputs["abc"], inputs["chain"])
    losses, grads, final = _mlp(sol.Value, inputs)
    return {"expr_values": t(vals), "expr_leaf_grads": t(leaf_grads), "expr_inner_grads": t(inner_grads),
            "mlp_loss": t(losses), "mlp_first_grads": t(grads), "mlp_final_params": t(final)}
