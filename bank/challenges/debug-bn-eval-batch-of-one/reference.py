import torch


def predict(model, image):
    was_training = model.training
    model.eval()  # BatchNorm normalises with its running statistics and does not update them
    try:
        with torch.inference_mode():  # no autograd graph, no saved activations
            logits = model(image.unsqueeze(0))[0]
            return torch.softmax(logits, dim=-1)
    finally:
        model.train(was_training)  # leave the model in the mode it was in
