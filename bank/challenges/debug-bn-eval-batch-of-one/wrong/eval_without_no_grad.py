# expect: Wrong Answer
import torch


def predict(model, image):
    was_training = model.training
    model.eval()
    logits = model(image.unsqueeze(0))[0]  # right numbers, but every request builds an autograd graph
    model.train(was_training)
    return torch.softmax(logits, dim=-1)
