def run(sol, inputs):
    tokens, probs = sol.sample(inputs["logits"], inputs["u"], inputs["temperature"], inputs["top_k"], inputs["top_p"])
    return {"tokens": tokens, "probs": probs}
