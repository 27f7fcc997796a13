import argparse

import torch
import torch.nn as nn


def make_predictor(args):
    layer_sizes = [args.num_words] + [int(s) for s in args.layer_sizes.split("-")] + [args.num_topics]
    layers = []
    for in_size, out_size in zip(layer_sizes, layer_sizes[1:]):
        layer = nn.Linear(in_size, out_size)
        layer.weight.data.normal_(0, 0.001)
        layer.bias.data.normal_(0, 0.001)
        layers.append(layer)
        layers.append(nn.Sigmoid())
    layers.append(nn.Softmax(dim=-1))
    return nn.Sequential(*layers)


def amortized_doc_topics(predictor, data, args, ind):
    # data: [num_words_per_doc, num_docs] word ids; ind: [batch_size] document ids
    # The neural network will operate on histograms rather than word
    # index vectors, so we'll convert the raw data to a histogram.
    counts = torch.zeros(args.num_words, ind.size(0))  # [num_words, batch_size]
    counts.scatter_add_(0, data[:, ind], torch.tensor(1.).expand(counts.shape))
    return predictor(counts.transpose(0, 1)), counts  # [batch_size, num_topics]


def model_data(args):
    # A toy corpus: every document draws its words from a few topics.
    topic_words = torch.distributions.Dirichlet(torch.ones(args.num_words) / args.num_words)
    topic_words = topic_words.sample((args.num_topics,))  # [num_topics, num_words]
    doc_topics = torch.randint(0, args.num_topics, (args.num_docs,))
    probs = topic_words[doc_topics]  # [num_docs, num_words]
    return torch.multinomial(probs, args.num_words_per_doc, replacement=True).t()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Amortized LDA guide")
    parser.add_argument("--num-topics", default=8, type=int)
    parser.add_argument("--num-words", default=48, type=int)
    parser.add_argument("--num-docs", default=100, type=int)
    parser.add_argument("--num-words-per-doc", default=64, type=int)
    parser.add_argument("--layer-sizes", default="100-100")
    parser.add_argument("--batch-size", default=16, type=int)
    args = parser.parse_args([])
    torch.manual_seed(0)
    data = model_data(args)
    predictor = make_predictor(args)
    ind = torch.randperm(args.num_docs)[:args.batch_size]
    doc_topics, counts = amortized_doc_topics(predictor, data, args, ind)
    ref = torch.zeros(args.num_words, args.batch_size)
    for j, d in enumerate(ind.tolist()):
        for w in data[:, d].tolist():
            ref[w, j] += 1
    print("histogram matches loop reference:", torch.equal(counts, ref), "doc_topics:", tuple(doc_topics.shape))
