def run(sol, inputs):
    seqs, scores, logprobs = sol.beam_search(inputs["log_start"], inputs["log_trans"], inputs["eos"],
                                             inputs["beam_size"], inputs["max_len"], inputs["alpha"],
                                             inputs["n_best"])
    return {"sequences": [[int(t) for t in s] for s in seqs], "scores": scores, "logprobs": logprobs}
