def run(sol, inputs):
    logits = inputs["logits"].clone()
    out = sol.apply_penalties(logits, inputs["history"].clone(), inputs["repetition_penalty"],
                              inputs["frequency_penalty"], inputs["presence_penalty"])
    return {"logits": out, "input_after_call": logits}
