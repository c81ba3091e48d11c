def run(sol, inputs):
    paths, scores = sol.viterbi_decode(inputs["emissions"].clone(), inputs["transitions"].clone(),
                                       inputs["start"].clone(), inputs["end"].clone(), inputs["mask"].clone())
    return {"paths": paths, "scores": scores}
