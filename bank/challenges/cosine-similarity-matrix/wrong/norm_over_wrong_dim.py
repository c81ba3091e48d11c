# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    # norms over dim 0 (per feature, across vectors) instead of per vector
    a_norm = torch.linalg.vector_norm(a, dim=0, keepdim=True).clamp_min(eps)
    b_norm = torch.linalg.vector_norm(b, dim=0, keepdim=True).clamp_min(eps)
    return (a / a_norm) @ (b / b_norm).T  # normalise first: no overflow in the dot products
