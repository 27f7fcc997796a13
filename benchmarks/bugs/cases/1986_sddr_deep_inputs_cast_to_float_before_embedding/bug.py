import numpy as np
import torch
import torch.nn as nn


class PrepareData(object):
    """Turns a column table into the per-parameter input dicts of the SDDR network.

    ``formula_terms_dict[param]`` lists the structured columns and, per neural network,
    the columns fed to it. ``transform`` returns ``{param: {"structured": (n, p) tensor,
    net_name: (n, k) tensor}}``.
    """

    def __init__(self, formula_terms_dict):
        self.formula_terms_dict = formula_terms_dict

    def transform(self, data):
        prepared_data = dict()
        for param, terms in self.formula_terms_dict.items():
            prepared_data[param] = dict()
            structured = [np.ones(len(next(iter(data.values()))))] + [data[c] for c in terms["structured"]]
            prepared_data[param]["structured"] = torch.from_numpy(np.stack(structured, axis=1)).float()
            for net_name, net_feature_names in terms["net_feature_names"].items():
                columns = np.stack([data[c] for c in net_feature_names], axis=1)
                prepared_data[param][net_name] = torch.from_numpy(columns).float()
        return prepared_data


class SddrFormulaNet(nn.Module):
    """One distribution parameter: structured linear predictor plus the outputs of the deep nets.

    ``forward`` takes the dict built by PrepareData and returns the (n,) predictor.
    """

    def __init__(self, structured_shape, deep_models_dict, deep_shapes):
        super().__init__()
        self.deep_models_dict = nn.ModuleDict(deep_models_dict)
        self.structured_head = nn.Linear(structured_shape, 1, bias=False)
        self.deep_head = nn.Linear(sum(deep_shapes.values()), 1, bias=False)

    def forward(self, datadict):
        X = datadict["structured"]
        Utilde_list = []
        for key in self.deep_models_dict.keys():  # the input of a network has the name of the network as key
            net = self.deep_models_dict[key]
            Uhat_net = net(datadict[key])
            Utilde_list.append(Uhat_net)
        return (self.structured_head(X) + self.deep_head(torch.cat(Utilde_list, dim=1))).squeeze(-1)


class Sddr(object):
    def __init__(self, formula_terms_dict, deep_models_dict, deep_shapes, lr=0.01):
        self.prepare_data = PrepareData(formula_terms_dict)
        self.device = torch.device("cpu")
        self.net = SddrFormulaNet(1 + len(formula_terms_dict["logits"]["structured"]), deep_models_dict, deep_shapes)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)

    def train(self, data, target, batch_size=8):
        prepared = self.prepare_data.transform(data)
        datadict = prepared["logits"]
        # send each input batch to the current device
        for data_part in datadict.keys():
            datadict[data_part] = datadict[data_part].float().to(self.device)
        target = torch.from_numpy(target).float()
        self.optimizer.zero_grad()
        logits = self.net(datadict)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, target)
        loss.backward()
        self.optimizer.step()
        return loss.item(), datadict


class EmbeddingNet(nn.Module):
    """x: (batch, 2) label-encoded codes of (age, tumor_size) -> (batch, 4) features."""

    def __init__(self, n_age, n_tumor_size, embedding_dim=2):
        super().__init__()
        self.age_embedding = nn.Embedding(n_age, embedding_dim)
        self.tumor_size_embedding = nn.Embedding(n_tumor_size, embedding_dim)

    def forward(self, x):
        return torch.cat([self.age_embedding(x[:, 0]), self.tumor_size_embedding(x[:, 1])], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n = 32
    # breast cancer data: both columns are discretized and label-encoded as integers
    data = {
        "age": rng.integers(0, 6, size=n),
        "tumor_size": rng.integers(0, 11, size=n),
        "deg_malig": rng.integers(1, 4, size=n).astype(np.float64),
    }
    target = (rng.random(n) < 0.3).astype(np.int64)  # 1: tumor recurs

    formula_terms_dict = {"logits": {"structured": ["deg_malig"],
                                     "net_feature_names": {"dnn": ["age", "tumor_size"]}}}
    deep_models_dict = {"dnn": EmbeddingNet(n_age=6, n_tumor_size=11)}
    sddr = Sddr(formula_terms_dict, deep_models_dict, deep_shapes={"dnn": 4})
    loss, _ = sddr.train(data, target)
    print("loss after one step:", loss)
