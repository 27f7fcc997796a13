import torch


def class_mask(segmask, _class):
    if isinstance(_class, str) and "||" in _class:
        parts = [int(c) for c in _class.split("||")]
        mask = segmask == parts[0]
        for c in parts[1:]:
            mask = mask | (segmask == c)
        return mask
    return segmask == int(_class)


def one_hot(segmask_array, class_list):
    batch_stack = []
    for b in range(segmask_array.shape[0]):
        segmask_array_iter = segmask_array[b, 0]
        one_hot_stack = [class_mask(segmask_array_iter, _class) for _class in class_list]
        batch_stack.append(torch.stack(one_hot_stack))
    return torch.stack(batch_stack).float()


def load_label_batch(params):
    gen = torch.Generator().manual_seed(params["seed"])
    seg = torch.randint(0, params["num_labels"], params["patch_size"], generator=gen)
    return seg.unsqueeze(0).unsqueeze(0)


def class_volumes(params):
    seg = load_label_batch(params)
    encoded = one_hot(seg, params["model"]["class_list"])
    return encoded.flatten(2).sum(-1), seg


if __name__ == "__main__":
    params = {
        "seed": 0,
        "num_labels": 3,
        "patch_size": (6, 8, 8),
        "model": {"class_list": [0, "1||2"]},
    }
    volumes, seg = class_volumes(params)

    ref = []
    for _class in params["model"]["class_list"]:
        wanted = [int(c) for c in str(_class).split("||")]
        ref.append(sum(int(v) in wanted for v in seg.flatten().tolist()))
    assert volumes[0].tolist() == [float(r) for r in ref], (volumes[0].tolist(), ref)
    print("ok")
