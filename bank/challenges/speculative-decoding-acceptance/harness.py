def run(sol, inputs):
    tokens, n_accepted = sol.speculative_accept(inputs["draft_tokens"].clone(), inputs["q"].clone(),
                                                inputs["p"].clone(), inputs["u_accept"].clone(),
                                                inputs["u_sample"].clone())
    return {"n_accepted": n_accepted, "tokens": tokens}
