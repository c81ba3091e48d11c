from torchdojo.judge.testing import vjp


def run(sol, inputs):
    out = {"table": sol.sinusoidal_table(inputs["num_positions"], inputs["d_model"], inputs["base"])}
    if "x" in inputs:
        x = inputs["x"].clone().requires_grad_(True)
        y = sol.add_positional_encoding(x, inputs["start"], inputs["base"])
        out["y"] = y
        (out["x_grad"],) = vjp(y, x, seed=1)
    return out
