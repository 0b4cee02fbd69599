/// A tag name as the OFX reader compares it: a name it knows by its number, any other by its
/// text. Why: every tag of a statement is compared with the open ones and looked up among the
/// leaves; numbers make those comparisons free, where a `String` per tag had to be built,
/// hashed and compared (a third of the reading time).
struct OFXName: Equatable {
  /// 1-based index in `OFXName.known`, or 0 for a name the reader does not know.
  let id: UInt8
  /// The upper-cased name when `id` is 0 (empty for `</>`), else empty.
  let other: String

  init(id: UInt8) {
    self.id = id
    other = ""
  }

  init(other: String) {
    id = 0
    self.other = other
  }

  /// The name as written in the file, upper-cased.
  var text: String { id == 0 ? other : OFXName.known[Int(id) &- 1] }

  /// A leaf element of the statements this reader reads. One of these left empty and unclosed
  /// (`<MEMO>` directly followed by the next tag) is a leaf, not an aggregate, so it is dropped
  /// instead of being taken as the parent of what follows.
  var isLeaf: Bool { id != 0 && Int(id) <= OFXName.leaves.count }

  /// An aggregate whose end the file must reach: one still open at the end means the file was cut.
  var isRequiredAggregate: Bool {
    Int(id) > OFXName.leaves.count && Int(id) <= OFXName.leaves.count &+ OFXName.requiredAggregates.count
  }

  static let leaves: [String] = [
    "TRNTYPE", "DTPOSTED", "DTUSER", "DTAVAIL", "TRNAMT", "FITID", "CORRECTFITID", "CORRECTACTION", "SRVRTID",
    "CHECKNUM", "REFNUM", "SIC", "PAYEEID", "NAME", "EXTDNAME", "MEMO", "CURSYM", "CURRATE", "CURDEF", "BANKID",
    "BRANCHID", "ACCTID", "ACCTTYPE", "ACCTKEY", "DTSTART", "DTEND", "BALAMT", "DTASOF", "CODE", "SEVERITY",
    "MESSAGE", "TRNUID", "CLTCOOKIE", "DTSERVER", "LANGUAGE", "ORG", "FID", "INTU.BID", "INTU.USERID",
    "ADDR1", "ADDR2", "ADDR3", "CITY", "STATE", "POSTALCODE", "COUNTRY", "PHONE", "MKTGINFO", "INV401KSOURCE",
    "DTPROFUP", "DTACCTUP", "SESSCOOKIE", "USERKEY", "DESC", "BALTYPE", "VALUE", "INTU.XID",
  ]

  static let requiredAggregates: [String] = [
    "OFX", "BANKMSGSRSV1", "STMTTRNRS", "STMTRS", "CREDITCARDMSGSRSV1", "CCSTMTTRNRS", "CCSTMTRS",
    "BANKTRANLIST", "PENDINGTRNLIST", "STMTTRN", "PENDINGTRN",
  ]

  /// Other aggregates the reader looks at, or that most files have.
  static let aggregates: [String] = [
    "PAYEE", "CURRENCY", "ORIGCURRENCY", "BANKACCTFROM", "CCACCTFROM", "BANKACCTTO", "CCACCTTO", "SIGNONMSGSRSV1",
    "SONRS", "STATUS", "FI", "LEDGERBAL", "AVAILBAL", "BALLIST", "BAL",
  ]

  static let known = leaves + requiredAggregates + aggregates

  /// The number of a name in `known` (it must be there).
  static func named(_ name: String) -> OFXName {
    OFXName(id: UInt8(truncatingIfNeeded: (known.firstIndex(of: name) ?? -1) &+ 1))
  }

  static let stmtrs = named("STMTRS")
  static let ccstmtrs = named("CCSTMTRS")
  static let stmttrn = named("STMTTRN")
  static let pendingtrn = named("PENDINGTRN")
  static let pendingtrnlist = named("PENDINGTRNLIST")
  static let banktranlist = named("BANKTRANLIST")
  static let dtposted = named("DTPOSTED")
  static let trnamt = named("TRNAMT")
  static let fitid = named("FITID")
  static let name = named("NAME")
  static let memo = named("MEMO")
  static let payee = named("PAYEE")
  static let currency = named("CURRENCY")
  static let cursym = named("CURSYM")
  static let curdef = named("CURDEF")
  static let bankacctfrom = named("BANKACCTFROM")
  static let ccacctfrom = named("CCACCTFROM")
  static let acctid = named("ACCTID")
  static let accttype = named("ACCTTYPE")
  static let ledgerbal = named("LEDGERBAL")
  static let balamt = named("BALAMT")
  static let dtasof = named("DTASOF")
}

/// Finds a name's number from its upper-cased bytes and their FNV-1a hash (which the tokenizer
/// computes while it reads the name): open addressing over the known names, no allocation.
struct OFXNameTable {
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3
  static let shared = OFXNameTable()

  let mask: Int
  /// Per slot: the hash of the name there and its number (0: an empty slot).
  let hashes: [UInt64]
  let ids: [UInt8]
  /// Per known name (by number − 1): its bytes, all names one after another in `arena`.
  let arena: [UInt8]
  let offsets: [Int]
  let lengths: [Int]

  init() {
    let capacity = 512
    var hashes = [UInt64](repeating: 0, count: capacity)
    var ids = [UInt8](repeating: 0, count: capacity)
    var arena: [UInt8] = []
    var offsets: [Int] = []
    var lengths: [Int] = []
    for (index, name) in OFXName.known.enumerated() {
      let bytes = Array(name.utf8)
      offsets.append(arena.count)
      lengths.append(bytes.count)
      arena += bytes
      let hash = OFXNameTable.hash(bytes)
      var slot = Int(truncatingIfNeeded: hash) & (capacity &- 1)
      while ids[slot] != 0 { slot = (slot &+ 1) & (capacity &- 1) }
      hashes[slot] = hash
      ids[slot] = UInt8(truncatingIfNeeded: index &+ 1)
    }
    mask = capacity &- 1
    self.hashes = hashes
    self.ids = ids
    self.arena = arena
    self.offsets = offsets
    self.lengths = lengths
  }

  static func hash(_ name: [UInt8]) -> UInt64 {
    var h = seed
    for b in name { h = (h ^ UInt64(b)) &* prime }
    return h
  }

  /// The name of `name`'s bytes (upper-cased), whose hash is `hash`.
  func lookup(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> OFXName {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while ids[slot] != 0 {
      let id = ids[slot]
      if hashes[slot] == hash && equal(Int(id) &- 1, name) { return OFXName(id: id) }
      slot = (slot &+ 1) & mask
    }
    return OFXName(other: String(decoding: name, as: UTF8.self))
  }

  /// Whether known name `index` has exactly the bytes `name`.
  func equal(_ index: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let length = lengths[index]
    guard length == name.count else { return false }
    let offset = offsets[index]
    var i = 0
    while i < length {
      if arena[offset &+ i] != name[i] { return false }
      i &+= 1
    }
    return true
  }
}
