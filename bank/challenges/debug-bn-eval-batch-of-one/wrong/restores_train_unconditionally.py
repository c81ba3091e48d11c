# expect: Wrong Answer
import torch


def predict(model, image):
    model.eval()
    with torch.no_grad():
        probs = torch.softmax(model(image.unsqueeze(0))[0], dim=-1)
    model.train()  # a model that was in eval mode comes back in training mode
    return probs
