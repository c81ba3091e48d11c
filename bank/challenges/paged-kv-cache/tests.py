import torch

from torchdojo.judge.testing import Case

EXAMPLE = [["append", 0, 6], ["append", 1, 3], ["append", 0, 1], ["append", 1, 1], ["attend", [0, 1]],
           ["append", 0, 2], ["free", 0], ["append", 2, 5], ["append", 1, 1], ["append", 2, 1], ["attend", [2, 1]]]
# 4 blocks of 2 tokens: a request that does not fit fails and changes nothing; freed blocks are reused
OUT_OF_BLOCKS = [["append", 0, 5], ["append", 1, 3], ["append", 1, 2], ["append", 1, 2], ["attend", [1, 0]],
                 ["free", 0], ["append", 1, 7], ["append", 1, 5], ["append", 2, 1], ["attend", [1]],
                 ["append", 1, 1], ["free", 1], ["append", 2, 2], ["attend", [2]]]
# prompts and chunks that end exactly on block boundaries
EXACT = [["append", 0, 4], ["append", 1, 8], ["attend", [0, 1]], ["append", 0, 4], ["append", 1, 1],
         ["attend", [1, 0]], ["append", 0, 1], ["append", 1, 3], ["attend", [0, 1]]]


def cases():
    return [
        Case("example", {"script": EXAMPLE, "num_blocks": 8, "block_size": 4, "heads": 2, "dim": 4}, public=True,
             seed=1, what="the statement's example: two prompts, decode steps, a freed sequence, a new one"),
        Case("decode-steps", {"n_seqs": 2, "steps": 4, "prompt_max": 7, "block_size": 4, "heads": 2, "dim": 4},
             public=True, seed=2, what="two prompts, then four decode steps of one token each"),
        Case("exact-multiples", {"script": EXACT, "num_blocks": 8, "block_size": 4, "heads": 2, "dim": 3}, seed=3,
             what="lengths that are exact multiples of the block size: a new block only when the last one is full"),
        Case("block-size-1", {"n_seqs": 3, "steps": 3, "prompt_max": 4, "block_size": 1, "heads": 1, "dim": 4},
             seed=4, shrink=("steps",), what="block_size 1: every token its own block"),
        Case("chunks-across-blocks", {"n_seqs": 3, "steps": 4, "prompt_max": 11, "chunk_max": 7, "block_size": 3,
                                      "heads": 2, "dim": 5}, seed=5, shrink=("steps",),
             what="appends of several tokens that span two or more blocks"),
        Case("reuse-after-free", {"n_seqs": 4, "steps": 9, "prompt_max": 9, "finish_every": 2, "block_size": 4,
                                  "heads": 3, "dim": 4}, seed=6, shrink=("steps",),
             what="sequences finish and new ones reuse their blocks (smallest free id first), scattered tables"),
        Case("out-of-blocks", {"script": OUT_OF_BLOCKS, "num_blocks": 4, "block_size": 2, "heads": 2, "dim": 4},
             seed=7, what="an append that does not fit raises RuntimeError and leaves the cache unchanged"),
        Case("ragged-batch", {"n_seqs": 5, "steps": 3, "prompt_max": 20, "block_size": 8, "heads": 2, "dim": 8,
                              "spare": 3}, seed=8, shrink=("n_seqs",),
             what="a batch mixing very short and long sequences, in shuffled order, with spare blocks"),
        Case("large-scores", {"n_seqs": 3, "steps": 2, "prompt_max": 9, "block_size": 4, "heads": 2, "dim": 4,
                              "scale": 30.0}, seed=9, shrink=("steps",),
             what="large queries and keys: the softmax must not overflow"),
    ]


def _random_script(g, n_seqs, steps, prompt_max, chunk_max, finish_every):
    def rint(lo, hi):
        return int(torch.randint(lo, hi + 1, (1,), generator=g))

    script, live, next_id = [], [], 0
    for _ in range(n_seqs):
        script.append(["append", next_id, rint(1, prompt_max)])
        live.append(next_id)
        next_id += 1
    for s in range(steps):
        if finish_every and s % finish_every == finish_every - 1:
            sid = live.pop(rint(0, len(live) - 1))
            script.append(["free", sid])
            script.append(["append", next_id, rint(1, prompt_max)])
            live.append(next_id)
            next_id += 1
        for sid in live:
            script.append(["append", sid, rint(1, chunk_max)])
        script.append(["attend", [live[i] for i in torch.randperm(len(live), generator=g).tolist()]])
    return script


def _peak_blocks(script, block_size):
    lens, used, peak = {}, 0, 0
    for op in script:
        if op[0] == "append":
            old = -(-lens.get(op[1], 0) // block_size)
            lens[op[1]] = lens.get(op[1], 0) + op[2]
            used += -(-lens[op[1]] // block_size) - old
        elif op[0] == "free":
            used -= -(-lens.pop(op[1]) // block_size)
        peak = max(peak, used)
    return peak


def make_inputs(seed, block_size, heads, dim, script=None, num_blocks=None, n_seqs=1, steps=1, prompt_max=4,
                chunk_max=1, finish_every=0, spare=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    if script is None:
        script = _random_script(g, n_seqs, steps, prompt_max, chunk_max, finish_every)
        num_blocks = _peak_blocks(script, block_size) + spare
    n_tok = sum(op[2] for op in script if op[0] == "append")
    n_q = sum(len(op[1]) for op in script if op[0] == "attend")
    f64 = torch.float64
    return {"script": script, "num_blocks": num_blocks, "block_size": block_size, "num_heads": heads,
            "head_dim": dim,
            "k_new": torch.randn(n_tok, heads, dim, generator=g, dtype=f64) * scale,
            "v_new": torch.randn(n_tok, heads, dim, generator=g, dtype=f64),
            "q": torch.randn(n_q, heads, dim, generator=g, dtype=f64) * scale}


def check(inputs, got):
    for key in sorted(k for k in got if k.startswith("k_via_table_") or k.startswith("v_via_table_")):
        other = got.get(key.replace("via_table", "gathered"))
        a = got[key]
        if isinstance(other, torch.Tensor) and other.shape == a.shape and not torch.equal(a, other):
            return (f"gather() and k_cache/v_cache disagree ({key}): token t of a sequence must be stored at "
                    "k_cache[table[t // block_size], t % block_size] and gathered from there")
    return None


def oracle(inputs):
    """Contiguous per-sequence tensors, a sorted free list, and the built-in attention."""
    import torch.nn.functional as F

    bs = inputs["block_size"]
    free, tables, keys, vals = set(range(inputs["num_blocks"])), {}, {}, {}
    out = {"raised": [], "tables": [], "free": [], "lens": []}
    kp = qp = step = 0
    for op in inputs["script"]:
        if op[0] == "append":
            _, sid, n = op
            k, v = inputs["k_new"][kp:kp + n], inputs["v_new"][kp:kp + n]
            kp += n
            old = len(keys[sid]) if sid in keys else 0
            need = (old + n + bs - 1) // bs - len(tables.get(sid, []))
            out["raised"].append(need > len(free))
            if need <= len(free):
                new = sorted(free)[:need]
                free -= set(new)
                tables[sid] = tables.get(sid, []) + new
                keys[sid] = torch.cat([keys[sid], k]) if sid in keys else k
                vals[sid] = torch.cat([vals[sid], v]) if sid in vals else v
        elif op[0] == "free":
            free |= set(tables.pop(op[1]))
            del keys[op[1]], vals[op[1]]
        else:
            sids = op[1]
            q = inputs["q"][qp:qp + len(sids)]
            qp += len(sids)
            for name in ("via_table", "gathered"):
                out[f"k_{name}_{step}"] = torch.cat([keys[s] for s in sids])
                out[f"v_{name}_{step}"] = torch.cat([vals[s] for s in sids])
            out[f"attn_{step}"] = torch.stack([
                F.scaled_dot_product_attention(q[b][:, None], keys[s].transpose(0, 1), vals[s].transpose(0, 1))[:, 0]
                for b, s in enumerate(sids)])
            step += 1
        live = [s for s in tables]
        out["tables"].append({str(s): list(tables[s]) for s in live})
        out["lens"].append({str(s): len(keys[s]) for s in live})
        out["free"].append(len(free))
    return out
