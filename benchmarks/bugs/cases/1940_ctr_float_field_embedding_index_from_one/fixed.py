import numpy as np
import torch
import torch.nn as nn


class ToyDataset:
    """Stand-in for the atomic-file dataset: field names, their types and vocabulary sizes."""

    def __init__(self):
        self.field2type = {
            "user_id": "token",
            "item_id": "token",
            "age": "float",
            "price": "float",
            "hist_ctr": "float",
            "label": "float",
        }
        self._num = {"user_id": 50, "item_id": 80, "age": 1, "price": 1, "hist_ctr": 1}

    def fields(self):
        return list(self.field2type)

    def num(self, field):
        return self._num[field]


class FMEmbedding(nn.Module):
    def __init__(self, field_dims, offsets, output_dim):
        super().__init__()
        self.embedding = nn.Embedding(sum(field_dims), output_dim)
        self.offsets = offsets

    def forward(self, input_x):
        input_x = input_x + input_x.new_tensor(self.offsets).unsqueeze(0)
        return self.embedding(input_x)


class ContextRecommender(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.LABEL = config["LABEL_FIELD"]
        self.embedding_size = config["embedding_size"]
        self.device = config["device"]
        self.token_field_names, self.token_field_dims = [], []
        self.float_field_names, self.float_field_dims = [], []
        for field_name in dataset.fields():
            if field_name == self.LABEL:
                continue
            if dataset.field2type[field_name] == "token":
                self.token_field_names.append(field_name)
                self.token_field_dims.append(dataset.num(field_name))
            else:
                self.float_field_names.append(field_name)
                self.float_field_dims.append(dataset.num(field_name))
        self.token_field_offsets = np.array((0, *np.cumsum(self.token_field_dims)[:-1]), dtype=np.int64)
        self.token_embedding_table = FMEmbedding(self.token_field_dims, self.token_field_offsets, self.embedding_size)
        self.float_embedding_table = nn.Embedding(int(np.sum(self.float_field_dims)), self.embedding_size)
        self.predict_layer = nn.Linear(self.embedding_size, 1)

    def embed_float_fields(self, float_fields):
        # input Tensor shape : [batch_size, num_float_field]
        num_float_field = float_fields.shape[1]
        # [batch_size, num_float_field]
        index = torch.arange(0, num_float_field).unsqueeze(0).expand_as(float_fields).long().to(self.device)

        # [batch_size, num_float_field, embed_dim]
        float_embedding = self.float_embedding_table(index)
        float_embedding = torch.mul(float_embedding, float_fields.unsqueeze(2))
        return float_embedding

    def embed_input_fields(self, interaction):
        float_fields = torch.stack([interaction[f] for f in self.float_field_names], dim=1)  # [batch_size, num_float_field]
        token_fields = torch.stack([interaction[f] for f in self.token_field_names], dim=1)  # [batch_size, num_token_field]
        sparse_embedding = self.token_embedding_table(token_fields)  # [batch_size, num_token_field, embed_dim]
        dense_embedding = self.embed_float_fields(float_fields)  # [batch_size, num_float_field, embed_dim]
        return torch.cat([sparse_embedding, dense_embedding], dim=1)  # [batch_size, num_field, embed_dim]

    def forward(self, interaction):
        all_embeddings = self.embed_input_fields(interaction)
        return torch.sigmoid(self.predict_layer(all_embeddings.sum(dim=1)).squeeze(-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    dataset = ToyDataset()
    config = {"LABEL_FIELD": "label", "embedding_size": 8, "device": "cpu"}
    model = ContextRecommender(config, dataset)
    batch_size = 6
    interaction = {
        "user_id": torch.randint(0, 50, (batch_size,)),
        "item_id": torch.randint(0, 80, (batch_size,)),
        "age": torch.rand(batch_size),
        "price": torch.rand(batch_size),
        "hist_ctr": torch.rand(batch_size),
    }
    with torch.no_grad():
        ctr = model(interaction)
        dense = model.embed_float_fields(torch.stack([interaction[f] for f in model.float_field_names], dim=1))

    # reference: field j of row b is embedding row j scaled by the field value
    W = model.float_embedding_table.weight
    for b in range(batch_size):
        for j, f in enumerate(model.float_field_names):
            assert torch.allclose(dense[b, j], W[j] * interaction[f][b])
    assert ctr.shape == (batch_size,)
    print("ok")
