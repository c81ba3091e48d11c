# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    na = torch.linalg.vector_norm(a, dim=1).clamp_min(eps)
    nb = torch.linalg.vector_norm(b, dim=1).clamp_min(eps)
    return (a @ b.T) / (na[:, None] * nb[None, :])  # right eps, but a @ b.T overflows for huge entries
