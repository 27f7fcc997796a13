import datetime
import math

import torch
import torch.nn.functional as F

NUM_VALUES = {
    "month": 12,
    "day": 31,
    "weekday": 7,
    "hour": 24,
    "minute": 60,
    "quarter": 4,
}


def attribute_values(timestamps, attribute):
    if attribute == "weekday":
        return [ts.weekday() for ts in timestamps]
    if attribute == "quarter":
        return [(ts.month - 1) // 3 + 1 for ts in timestamps]
    return [getattr(ts, attribute) for ts in timestamps]


def datetime_attribute_encoding(timestamps, attribute, one_hot=False, cyclic=False):
    values = torch.tensor(attribute_values(timestamps, attribute))
    if one_hot:
        return F.one_hot(values, num_classes=NUM_VALUES[attribute]).float()
    if cyclic:
        freq = 2 * math.pi / NUM_VALUES[attribute]
        return torch.stack([torch.sin(freq * values), torch.cos(freq * values)], dim=-1)
    return values.float().unsqueeze(-1)


class FutureCovariateEncoder:
    def __init__(self, one_hot_attributes, cyclic_attributes):
        self.one_hot_attributes = one_hot_attributes
        self.cyclic_attributes = cyclic_attributes

    def encode(self, timestamps):
        parts = [datetime_attribute_encoding(timestamps, a, one_hot=True)
                 for a in self.one_hot_attributes]
        parts += [datetime_attribute_encoding(timestamps, a, cyclic=True)
                  for a in self.cyclic_attributes]
        return torch.cat(parts, dim=-1)


if __name__ == "__main__":
    start = datetime.datetime(2023, 12, 31, 20)
    timestamps = [start + datetime.timedelta(hours=h) for h in range(8)]
    encoder = FutureCovariateEncoder(["month", "weekday", "hour"], ["day"])
    covariates = encoder.encode(timestamps)
    print(covariates.shape)
