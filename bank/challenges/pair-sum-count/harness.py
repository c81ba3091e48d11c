def run(sol, inputs):
    return {"pairs": int(sol.count_pairs(inputs["x"], inputs["target"]))}
