def run(sol, inputs):
    return {"label": sol.components(inputs["n"], inputs["edges"])}
