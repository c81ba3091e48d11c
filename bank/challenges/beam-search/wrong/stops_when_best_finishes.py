# expect: Wrong Answer
import torch


def beam_search(log_start, log_trans, eos, beam_size, max_len, alpha=0.0, n_best=None):
    V = log_start.numel()
    n_best = beam_size if n_best is None else n_best
    lp, tok = torch.topk(log_start, min(beam_size, V))  # step 1: the best first tokens
    seqs = [[t] for t in tok.tolist()]
    done = tok == eos
    for _ in range(max_len - 1):
        if bool(done[0]):  # stops as soon as the top hypothesis is finished
            break
        last = torch.tensor([s[-1] for s in seqs])
        grow = lp[:, None] + log_trans[last]  # (n, V): every extension of every hypothesis
        grow = grow.masked_fill(done[:, None], float("-inf"))  # finished ones do not grow...
        keep = torch.where(done, lp, torch.full_like(lp, float("-inf")))[:, None]  # ...they carry over as is
        cand = torch.cat([grow, keep], dim=1).flatten()  # column V means "frozen"
        n_valid = int((~done).sum()) * V + int(done.sum())
        lp, idx = torch.topk(cand, min(beam_size, n_valid))
        rows, cols = (idx // (V + 1)).tolist(), (idx % (V + 1)).tolist()
        seqs = [seqs[r] if c == V else seqs[r] + [c] for r, c in zip(rows, cols)]
        done = torch.tensor([c == V or c == eos for c in cols])
    lengths = torch.tensor([len(s) for s in seqs], dtype=lp.dtype)
    scores = lp / lengths ** alpha  # length normalisation, only for the final ranking
    order = torch.argsort(scores, descending=True, stable=True)[:n_best].tolist()
    return [seqs[i] for i in order], scores[order], lp[order]
