from collections import OrderedDict

import torch
import torch.nn as nn


class SparseFeat:
    def __init__(self, name, vocabulary_size, embedding_dim=8, embedding_name=None):
        self.name = name
        self.vocabulary_size = vocabulary_size
        self.embedding_dim = embedding_dim
        self.embedding_name = embedding_name or name


class VarLenSparseFeat:
    def __init__(self, sparsefeat, maxlen, length_name=None):
        self.sparsefeat = sparsefeat
        self.maxlen = maxlen
        self.length_name = length_name
        self.name = sparsefeat.name
        self.embedding_name = sparsefeat.embedding_name
        self.embedding_dim = sparsefeat.embedding_dim


def build_input_features(feature_columns):
    # name -> (start, end) columns of the flat input X
    features = OrderedDict()
    start = 0
    for feat in feature_columns:
        if isinstance(feat, SparseFeat):
            features[feat.name] = (start, start + 1)
            start += 1
        else:
            features[feat.name] = (start, start + feat.maxlen)
            start += feat.maxlen
            if feat.length_name is not None and feat.length_name not in features:
                features[feat.length_name] = (start, start + 1)
                start += 1
    return features


def embedding_lookup(X, embedding_dict, feature_index, columns, names):
    out = []
    for fc in columns:
        if fc.name in names:
            lookup_idx = feature_index[fc.name]
            input_tensor = X[:, lookup_idx[0]:lookup_idx[1]].long()
            out.append(embedding_dict[fc.embedding_name](input_tensor))   # [B, 1 or T, E]
    return out


def maxlen_lookup(X, feature_index, feature_names):
    lookup_idx = feature_index[feature_names[0]]
    return X[:, lookup_idx[0]:lookup_idx[1]].long()


class LocalActivationUnit(nn.Module):
    def __init__(self, hidden_units=(64, 32), embedding_dim=4):
        super().__init__()
        self.dnn = nn.Sequential(
            nn.Linear(4 * embedding_dim, hidden_units[0]), nn.Sigmoid(),
            nn.Linear(hidden_units[0], hidden_units[1]), nn.Sigmoid(),
        )
        self.dense = nn.Linear(hidden_units[-1], 1)

    def forward(self, query, user_behavior):
        # query ad            : size -> batch_size * 1 * embedding_size
        # user behavior       : size -> batch_size * time_seq_len * embedding_size
        user_behavior_len = user_behavior.size(1)
        queries = query.expand(-1, user_behavior_len, -1)
        attention_input = torch.cat([queries, user_behavior, queries - user_behavior, queries * user_behavior], dim=-1)
        attention_output = self.dnn(attention_input)
        attention_score = self.dense(attention_output)  # [B, T, 1]
        return attention_score


class AttentionSequencePoolingLayer(nn.Module):
    def __init__(self, att_hidden_units=(80, 40), weight_normalization=False, embedding_dim=4):
        super().__init__()
        self.weight_normalization = weight_normalization
        self.local_att = LocalActivationUnit(hidden_units=att_hidden_units, embedding_dim=embedding_dim)

    def forward(self, query, keys, keys_length):
        batch_size, max_length, dim = keys.size()

        keys_masks = torch.arange(max_length, device=keys_length.device, dtype=keys_length.dtype).repeat(batch_size, 1)  # [B, T]
        keys_masks = keys_masks < keys_length.view(-1, 1)  # 0, 1 mask
        keys_masks = keys_masks.unsqueeze(1)  # [B, 1, T]

        attention_score = self.local_att(query, keys)  # [B, T, 1]

        outputs = torch.transpose(attention_score, 1, 2)  # [B, 1, T]

        if self.weight_normalization:
            paddings = torch.ones_like(outputs) * (-2 ** 32 + 1)
        else:
            paddings = torch.zeros_like(outputs)

        outputs = torch.where(keys_masks, outputs, paddings)  # [B, 1, T]

        if self.weight_normalization:
            outputs = torch.softmax(outputs, dim=-1)  # [B, 1, T]

        outputs = torch.matmul(outputs, keys)  # [B, 1, E]
        return outputs


class DIN(nn.Module):
    def __init__(self, dnn_feature_columns, history_feature_list, att_hidden_size=(64, 16)):
        super().__init__()
        self.sparse_feature_columns = [fc for fc in dnn_feature_columns if isinstance(fc, SparseFeat)]
        self.varlen_sparse_feature_columns = [fc for fc in dnn_feature_columns if isinstance(fc, VarLenSparseFeat)]
        self.history_feature_list = history_feature_list
        self.history_fc_names = ["hist_" + x for x in history_feature_list]
        self.feature_index = build_input_features(dnn_feature_columns)

        self.embedding_dict = nn.ModuleDict({
            fc.embedding_name: nn.Embedding(fc.vocabulary_size, fc.embedding_dim)
            for fc in self.sparse_feature_columns
        })

        att_emb_dim = sum(fc.embedding_dim for fc in self.sparse_feature_columns if fc.name in history_feature_list)
        self.attention = AttentionSequencePoolingLayer(att_hidden_units=att_hidden_size, embedding_dim=att_emb_dim)

        dnn_input_dim = sum(fc.embedding_dim for fc in self.sparse_feature_columns) + att_emb_dim
        self.dnn = nn.Sequential(nn.Linear(dnn_input_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, X, return_interest=False):
        query_emb_list = embedding_lookup(X, self.embedding_dict, self.feature_index, self.sparse_feature_columns,
                                          self.history_feature_list)
        keys_emb_list = embedding_lookup(X, self.embedding_dict, self.feature_index, self.varlen_sparse_feature_columns,
                                         self.history_fc_names)
        dnn_input_emb_list = embedding_lookup(X, self.embedding_dict, self.feature_index, self.sparse_feature_columns,
                                              [fc.name for fc in self.sparse_feature_columns])

        # concatenate
        query_emb = torch.cat(query_emb_list, dim=-1)                     # [B, 1, E]
        keys_emb = torch.cat(keys_emb_list, dim=-1)                       # [B, T, E]
        keys_length_feature_name = [feat.length_name for feat in self.varlen_sparse_feature_columns if
                                    feat.length_name is not None]
        keys_length = maxlen_lookup(X, self.feature_index, keys_length_feature_name)  # [B, 1]
        deep_input_emb = torch.cat(dnn_input_emb_list, dim=-1)

        hist = self.attention(query_emb, keys_emb, keys_length)           # [B, 1, E]
        if return_interest:
            return hist

        deep_input_emb = torch.cat((deep_input_emb, hist), dim=-1).squeeze(1)
        return torch.sigmoid(self.dnn(deep_input_emb))


if __name__ == "__main__":
    torch.manual_seed(0)
    maxlen = 4
    feature_columns = [
        SparseFeat('user', 10, embedding_dim=8),
        SparseFeat('item_id', 20, embedding_dim=8),
        SparseFeat('cate_id', 5, embedding_dim=4),
        VarLenSparseFeat(SparseFeat('hist_item_id', 20, embedding_dim=8, embedding_name='item_id'), maxlen, length_name='seq_length'),
        VarLenSparseFeat(SparseFeat('hist_cate_id', 5, embedding_dim=4, embedding_name='cate_id'), maxlen, length_name='seq_length'),
    ]
    model = DIN(feature_columns, history_feature_list=['item_id', 'cate_id'])

    # user, item, cate, hist_item_id (padded with 0), seq_length, hist_cate_id
    X = torch.tensor([
        [1, 7, 2, 3, 9, 11, 0, 3, 1, 4, 2, 0],
        [2, 7, 2, 3, 0, 0, 0, 1, 1, 0, 0, 0],
    ], dtype=torch.float)

    with torch.no_grad():
        interest = model(X, return_interest=True)

        # reference: score every real history item against the candidate and sum them up
        item_emb, cate_emb = model.embedding_dict['item_id'], model.embedding_dict['cate_id']
        for b in range(X.shape[0]):
            row = X[b].long().tolist()
            query = torch.cat([item_emb.weight[row[1]], cate_emb.weight[row[2]]])
            expected = torch.zeros_like(query)
            for t in range(row[7]):
                key = torch.cat([item_emb.weight[row[3 + t]], cate_emb.weight[row[8 + t]]])
                score = model.attention.local_att(query.view(1, 1, -1), key.view(1, 1, -1)).item()
                expected += score * key
            assert torch.allclose(interest[b, 0], expected, atol=1e-6), b
    assert not torch.allclose(interest[0], interest[1])
    print("ok")
