import torch

from torchdojo.judge.testing import Case

EXAMPLE = [["insert", "tea", 0], ["insert", "ten", 1], ["insert", "te", 2], ["insert", "to", 3],
           ["get", "t"], ["get", "te"], ["prefix", "te"], ["prefix", "x"]]


def cases():
    return [
        Case("example", {"ops": EXAMPLE, "values": [[1.0], [2.0], [3.0], [4.0]]}, public=True,
             what="the worked example"),
        Case("insertion-order", {"ops": [["insert", "cab", 0], ["insert", "abc", 1], ["insert", "b", 2],
                                         ["insert", "ab", 3], ["insert", "abd", 4], ["prefix", ""], ["prefix", "ab"],
                                         ["get", "a"], ["get", "ab"]], "n_rows": 5, "dim": 3}, public=True, seed=1,
             what="results are sorted, not in insertion order"),
        Case("replace", {"ops": [["insert", "key", 0], ["insert", "kex", 1], ["insert", "key", 2], ["get", "key"],
                                 ["prefix", "ke"]], "n_rows": 3, "dim": 2}, seed=2,
             what="inserting a key again replaces its embedding"),
        Case("prefixes-are-not-keys", {"n_keys": 60, "n_queries": 40, "alphabet": "ab", "max_len": 6, "dim": 2},
             seed=3, shrink=("n_keys", "n_queries"), what="get() of a string that is only a prefix gives None"),
        Case("random", {"n_keys": 300, "n_queries": 120, "alphabet": "abcdxyz", "max_len": 8, "dim": 4}, seed=4,
             shrink=("n_keys", "n_queries"), what="random keys and queries"),
        Case("code-point-order", {"n_keys": 80, "n_queries": 30, "alphabet": "aBzZ9_é", "max_len": 5, "dim": 2},
             seed=5, shrink=("n_keys", "n_queries"), what="upper case, digits and non-ASCII sort by code point"),
        Case("long-keys", {"long": 3000, "dim": 2}, seed=6, what="keys of 3000 characters (deep tries)"),
        Case("many-keys", {"n_keys": 20_000, "n_queries": 5_000, "alphabet": "abcdefgh", "max_len": 10, "dim": 4,
                           "min_len": 3, "query_len": (4, 5)}, seed=7,
             what="20000 keys, 5000 prefix queries (timed against the reference)"),
    ]


def make_inputs(seed, ops=None, values=None, n_rows=0, dim=1, n_keys=0, n_queries=0, alphabet="ab", max_len=1,
                min_len=1, query_len=None, long=0):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        return {"ops": ops, "embeddings": torch.tensor(values, dtype=torch.float64)}
    if ops is not None:
        return {"ops": ops, "embeddings": torch.randn(n_rows, dim, generator=g, dtype=torch.float64)}
    if long:
        keys = ["a" * long, "a" * (long - 1) + "b", "a" * (long // 2), "b" * long]
        ops = [["insert", k, i] for i, k in enumerate(keys)]
        ops += [["prefix", ""], ["prefix", "a" * 10], ["prefix", "a" * (long - 1)], ["get", "a" * (long - 1)],
                ["get", "a" * long], ["prefix", "b" * (long + 1)]]
        return {"ops": ops, "embeddings": torch.randn(len(keys), dim, generator=g, dtype=torch.float64)}
    lens = torch.randint(min_len, max_len + 1, (n_keys,), generator=g).tolist()
    chars = torch.randint(0, len(alphabet), (n_keys, max_len), generator=g).tolist()
    keys = ["".join(alphabet[c] for c in row[:n]) for row, n in zip(chars, lens)]
    ops = [["insert", k, i] for i, k in enumerate(keys)]
    picks = torch.randint(0, n_keys, (n_queries,), generator=g).tolist()
    cut = (torch.randint(query_len[0], query_len[1] + 1, (n_queries,), generator=g) if query_len else
           torch.randint(0, max_len + 1, (n_queries,), generator=g)).tolist()
    kinds = torch.randint(0, 3, (n_queries,), generator=g).tolist()
    for j, c, kind in zip(picks, cut, kinds):
        q = keys[j][:c]
        if query_len is not None or kind == 0:
            ops.append(["prefix", q])
        elif kind == 1:
            ops.append(["get", q])
        else:
            ops.append(["get", q + alphabet[0]])
    return {"ops": ops, "embeddings": torch.randn(n_keys, dim, generator=g, dtype=torch.float64)}


def oracle(inputs):
    """A plain dict, scanned and sorted for every prefix query."""
    table = inputs["embeddings"]
    dim = table.shape[1]
    store, found, got, keys, shapes, rows = {}, [], [], [], [], []
    for op in inputs["ops"]:
        if op[0] == "insert":
            store[op[1]] = table[op[2]]
        elif op[0] == "get":
            found.append(op[1] in store)
            if op[1] in store:
                got.append(store[op[1]])
        else:
            ks = sorted(k for k in store if k.startswith(op[1]))
            keys.append(ks)
            shapes.append([len(ks), dim])
            rows.extend(store[k] for k in ks)
    stack = lambda ts: torch.stack(ts) if ts else torch.empty(0, dim, dtype=torch.float64)  # noqa: E731
    return {"found": found, "got": stack(got), "prefix_keys": keys, "prefix_shapes": shapes,
            "prefix_embeddings": stack(rows)}
