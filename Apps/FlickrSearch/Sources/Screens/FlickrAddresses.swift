import MVVM

/// Flickr search's addresses, beside its screens: the search at `/`, a search's results at
/// `/results?q=sunset`, a photo of them at `/photo/ID?q=sunset`. A results or photo address
/// runs its search when opened (``FlickrSearchViewModel/search(_:thenOpen:)``), and the results,
/// then the photo, open when the answer comes.
public enum FlickrAddresses: AppAddresses {
    public typealias Services = FlickrServices

    public nonisolated static func stack(at address: Address, services: FlickrServices) -> [any AnyObject & Sendable]? {
        let search = FlickrSearchViewModel(services: services)
        let path = address.path
        switch (path.first, path.count) {
        case (nil, _):
            return [search]
        case ("results", 1):
            guard let text = address["q"] else { return nil }
            search.search(text)
        case ("photo", 2):
            guard let text = address["q"] else { return nil }
            search.search(text, thenOpen: path[1])
        default:
            return nil
        }
        return [search]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is FlickrSearchViewModel:
            return Address()
        case let results as FlickrSearchResultsViewModel:
            return Address(["results"], query: ["q": results.results.searchString])
        case let photo as FlickrPhotoDetailViewModel:
            return Address(["photo", photo.photo.identifier], query: below.keeping(["q"]).query)
        default:
            return nil
        }
    }
}
