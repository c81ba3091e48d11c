import torch


def run(sol, inputs):
    cache = sol.LRUCache(inputs["capacity"])
    values = {}
    hits = []
    for op, key in inputs["ops"]:
        if op == "put":
            t = torch.full((2,), float(key))
            values[key] = t
            cache.put(key, t)
        else:
            got = cache.get(key)
            # -1: miss; 1: the very tensor stored under key; 0: something else
            hits.append(-1 if got is None else int(got is values.get(key)))
    return {"hits": hits, "keys": [int(k) for k in cache.keys()]}
