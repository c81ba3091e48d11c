# expect: Wrong Answer
import torch


def predict(model, image):
    was_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)  # no graph, but the model stays frozen for the training that follows
    probs = torch.softmax(model(image.unsqueeze(0))[0], dim=-1)
    model.train(was_training)
    return probs
