import torch
import torch.nn.functional as F


def choice_probs(loglikelihoods):
    # loglikelihoods: [num_choices] -> normalized probabilities over the choices
    return torch.tensor(loglikelihoods).softmax(dim=-1).tolist()


def process_doc(doc, loglikelihoods):
    # one (gold, probs) pair per document for the brier_score aggregation
    return {"brier_score": (doc["gold"], choice_probs(loglikelihoods))}


def brier_score(items):
    gold, predictions = zip(*items)
    predictions = torch.tensor(predictions)  # [N, num_choices]
    gold = torch.tensor(gold)  # [N]
    gold_one_hot = F.one_hot(gold).to(predictions.dtype)  # [N, num_classes]
    return ((predictions - gold_one_hot) ** 2).sum(dim=1).mean().item()


def evaluate(docs, model_ll, limit=None):
    docs = docs[:limit] if limit is not None else docs
    items = [process_doc(d, model_ll(d))["brier_score"] for d in docs]
    return {"brier_score": brier_score(items), "n": len(items)}


if __name__ == "__main__":
    torch.manual_seed(0)
    # a 4-way multiple-choice task; the first docs happen to never have "D" as the answer
    golds = [0, 2, 1, 2, 0, 3, 1, 3, 0, 2]
    docs = [{"id": i, "gold": g, "choices": ["A", "B", "C", "D"]} for i, g in enumerate(golds)]
    table = torch.randn(len(docs), 4)

    def model_ll(doc):
        return table[doc["id"]].tolist()

    print("full run:", evaluate(docs, model_ll))
    print("--limit 5:", evaluate(docs, model_ll, limit=5))
