def run(sol, inputs):
    return {"starts": sol.find_all(inputs["text"], inputs["pattern"])}
