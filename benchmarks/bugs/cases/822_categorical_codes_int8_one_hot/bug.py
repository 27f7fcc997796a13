import torch

CONFIG = {
    "categorical": {"color": ["red", "green", "blue"], "size": ["S", "M", "L", "XL"]},
    "baseline_scale": 5.0,
}


def category_codes(values, categories):
    """Compact codes per row, the way a categorical column stores them."""
    lookup = {c: i for i, c in enumerate(categories)}
    codes = [lookup.get(v, len(categories)) for v in values]
    small = torch.int8 if len(categories) < 127 else torch.int16
    return torch.tensor(codes, dtype=small)


def ohe(codes, dim):
    y = codes.reshape(-1, 1)
    y_onehot = torch.zeros(len(codes), dim)
    y_onehot.scatter_(1, y, 1)
    return y_onehot


def baseline_predictions(frame, config):
    preds = {}
    for name, cats in config["categorical"].items():
        codes = category_codes(frame[name], cats)
        preds[name] = ohe(codes, len(cats) + 1) * config["baseline_scale"]
    return preds


def baseline_ce(frame, config):
    preds = baseline_predictions(frame, config)
    total = 0.0
    for name, cats in config["categorical"].items():
        target = category_codes(frame[name], cats).long()
        total += torch.nn.functional.cross_entropy(preds[name], target).item()
    return total / len(preds)


if __name__ == "__main__":
    frame = {
        "color": ["red", "blue", "blue", "purple", "green"],
        "size": ["M", "XL", "S", "S", "L"],
    }
    print("baseline categorical loss:", baseline_ce(frame, CONFIG))
