import torch


def label_to_onehot(label_map, num_objects):
    onehot = torch.zeros(num_objects + 1, *label_map.shape)
    src = torch.ones_like(label_map).unsqueeze(0)
    onehot.scatter_(0, label_map.unsqueeze(0), src)
    return onehot


def aggregate(prob, eps=1e-7):
    # soft aggregation of per-object foreground probabilities into background + objects
    bg = torch.prod(1 - prob, dim=0, keepdim=True)
    new_prob = torch.cat([bg, prob], dim=0).clamp(eps, 1 - eps)
    logits = torch.log(new_prob / (1 - new_prob))
    return logits.softmax(dim=0)


def propagate_first_frame(first_label, num_objects, smoothing=0.9):
    onehot = label_to_onehot(first_label, num_objects)
    fg = onehot[1:] * smoothing + (1 - smoothing) / (num_objects + 1)
    return aggregate(fg)


if __name__ == "__main__":
    torch.manual_seed(0)
    first_label = torch.randint(0, 3, (6, 8))
    prob = propagate_first_frame(first_label, num_objects=2)
    print("predicted labels match:", torch.equal(prob.argmax(0), first_label))
