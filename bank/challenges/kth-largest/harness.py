def run(sol, inputs):
    return {"value": sol.kth_largest(inputs["x"], inputs["k"])}
