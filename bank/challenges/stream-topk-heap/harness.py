def run(sol, inputs):
    scores, ids, sizes = inputs["scores"], inputs["ids"], inputs["sizes"]
    topk = sol.StreamTopK(inputs["k"])
    snapshots = []
    start = 0
    for b, n in enumerate(sizes):
        topk.push(scores[start:start + n], ids[start:start + n])
        start += n
        if b in inputs["query_after"]:
            s, i = topk.result()
            snapshots.append([[float(v) for v in s.tolist()], [int(v) for v in i.tolist()]])
    top_scores, top_ids = topk.result()
    return {"top_scores": top_scores, "top_ids": top_ids, "snapshots": snapshots}
