import torch
import torch.nn.functional as F

FIELD_TYPES = ["PTS", "AST", "REB", "TEAM-NAME", "TEAM-CITY"]


def build_field_vocab(types):
    vocab = {t: i for i, t in enumerate(types)}
    vocab["<unk>"] = len(vocab)
    vocab["<pad>"] = len(vocab)
    return vocab


def encode_records(records, vocab, max_len):
    # records: list of (entity, type, value) triples per game
    ids = torch.full((len(records), max_len), vocab["<pad>"], dtype=torch.long)
    for i, game in enumerate(records):
        for j, (_, rtype, _) in enumerate(game[:max_len]):
            ids[i, j] = vocab.get(rtype, vocab["<unk>"])
    return ids  # [B, R]


def type_features(type_ids, num_types):
    # type_ids: [B, R] -> [B, R, num_types]
    return F.one_hot(type_ids, num_classes=num_types).float()


if __name__ == "__main__":
    vocab = build_field_vocab(FIELD_TYPES)
    games = [
        [("Lakers", "TEAM-NAME", "Lakers"), ("James", "PTS", "31"), ("James", "BLK", "2")],
        [("Heat", "TEAM-CITY", "Miami"), ("Wade", "AST", "9")],
    ]
    type_ids = encode_records(games, vocab, max_len=4)  # [2, 4]
    feats = type_features(type_ids, num_types=len(vocab))
    for b in range(2):
        for r in range(4):
            expected = [1.0 if c == type_ids[b, r].item() else 0.0 for c in range(len(vocab))]
            assert feats[b, r].tolist() == expected
    print("ok")
