def run(sol, inputs):
    return {"y": sol.window_max(inputs["x"], inputs["k"])}
