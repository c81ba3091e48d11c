def run(sol, inputs):
    top, index = sol.topk_per_group(inputs["values"], inputs["groups"], inputs["num_groups"], inputs["k"])
    return {"top": top, "index": index}
