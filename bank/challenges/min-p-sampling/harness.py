def run(sol, inputs):
    tokens, probs = sol.sample(inputs["logits"].clone(), inputs["u"].clone(), inputs["temperature"],
                               inputs["top_k"], inputs["min_p"])
    return {"probs": probs, "tokens": tokens}
