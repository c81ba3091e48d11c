import torch


def predict(model, image):
    """Class probabilities for one image of shape (C, H, W): a tensor of shape (num_classes,)."""
    logits = model(image.unsqueeze(0))[0]
    return torch.softmax(logits, dim=-1)
