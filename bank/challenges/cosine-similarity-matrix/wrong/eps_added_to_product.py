# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    na = torch.linalg.vector_norm(a, dim=1)
    nb = torch.linalg.vector_norm(b, dim=1)
    return (a @ b.T) / (na[:, None] * nb[None, :] + eps)  # eps added to the product of norms
