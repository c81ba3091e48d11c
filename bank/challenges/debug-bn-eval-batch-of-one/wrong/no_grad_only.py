# expect: Wrong Answer
import torch


def predict(model, image):
    with torch.no_grad():  # no graph, but still training mode: BatchNorm uses (and updates) batch stats
        logits = model(image.unsqueeze(0))[0]
        return torch.softmax(logits, dim=-1)
