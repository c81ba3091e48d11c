import torch


def run(sol, inputs):
    table = inputs["embeddings"]
    dim = table.shape[1]
    rows = table.unbind(0)
    store = sol.TrieEmbeddingStore(dim)
    found, got, keys, shapes, results = [], [], [], [], []
    for op in inputs["ops"]:
        if op[0] == "insert":
            store.insert(op[1], rows[op[2]])
        elif op[0] == "get":
            e = store.get(op[1])
            found.append(e is not None)
            if e is not None:
                got.append(e)
        else:
            ks, emb = store.prefix_search(op[1])
            keys.append(list(ks))
            shapes.append(list(emb.shape))
            results.append(emb.reshape(-1, dim))
    return {"found": found,
            "got": torch.stack(got) if got else torch.empty(0, dim, dtype=torch.float64),
            "prefix_keys": keys, "prefix_shapes": shapes,
            "prefix_embeddings": torch.cat(results) if results else torch.empty(0, dim, dtype=torch.float64)}
