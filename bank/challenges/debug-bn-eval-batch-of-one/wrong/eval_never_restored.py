# expect: Wrong Answer
import torch


def predict(model, image):
    model.eval()  # nothing switches training mode back on: the next training steps run in eval mode
    with torch.no_grad():
        logits = model(image.unsqueeze(0))[0]
        return torch.softmax(logits, dim=-1)
