/**
 * Builds data/highway-graph.json, the US Interstate backbone the embedded router searches.
 *
 * The facts live in the two tables below, in a terse text form so a reviewer can check a row
 * against a map or a mileage table without reading JSON. Run `npx tsx scripts/build-highway-graph.ts`
 * after editing a table; the data file is committed, so nothing is fetched or built at run time.
 *
 * Node row: `Name | ST | latitude | longitude` (city centre or the interchange itself; the id is
 * the slug of name and state, e.g. `salt-lake-city-ut`).
 *
 * Edge row: `from to I-80[+I-90] miles|~class [lat,lon …]`
 * - `miles`: road miles between the two places as published in city-to-city road distance tables,
 *   rounded to the mile;
 * - `~f`, `~r`, `~m`: the road miles are not known to us, so they are estimated as the great-circle
 *   length of the segment's geometry (through its shape points) × the factor of its terrain class
 *   (ESTIMATION_FACTORS) and flagged `miles_estimated: true`;
 * - `+I-90`: an interstate signed concurrently on the same pavement;
 * - `lat,lon` pairs: shape points (towns the interstate passes) so geometry follows the road.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { haversineMiles } from '../shared/geo/distance.ts';

const OUTPUT = fileURLToPath(new URL('../data/highway-graph.json', import.meta.url));
const BIOME = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));

/** Bump when a node or an edge changes: routes and station catalogs record the version they used. */
const GRAPH_VERSION = '2025.1.0';

/**
 * Road miles over great-circle miles of the shape-point polyline, per terrain class. Calibrated on
 * the edges whose road miles are known (the script prints the known ratios per class): flat
 * interstates run within a few percent of their shape polyline, mountain ones wind more.
 */
const ESTIMATION_FACTORS = { f: 1.06, r: 1.09, m: 1.15 } as const;
const TERRAIN = { f: 'flat', r: 'rolling', m: 'mountain' } as const;

const NODES = `
San Diego|CA|32.7157|-117.1611
El Centro|CA|32.7920|-115.5631
Los Angeles|CA|34.0522|-118.2437
Ontario|CA|34.0633|-117.6509
Barstow|CA|34.8958|-117.0173
Needles|CA|34.8481|-114.6141
Indio|CA|33.7206|-116.2156
Blythe|CA|33.6103|-114.5964
Wheeler Ridge|CA|35.0036|-118.9517
Kettleman City|CA|36.0083|-119.9618
Santa Nella|CA|37.0961|-121.0158
Tracy|CA|37.7397|-121.4252
San Francisco|CA|37.7749|-122.4194
Sacramento|CA|38.5816|-121.4944
Redding|CA|40.5865|-122.3917
Medford|OR|42.3265|-122.8756
Eugene|OR|44.0521|-123.0868
Portland|OR|45.5152|-122.6784
The Dalles|OR|45.5946|-121.1787
Hermiston|OR|45.8404|-119.2895
Pendleton|OR|45.6721|-118.7886
La Grande|OR|45.3246|-118.0877
Baker City|OR|44.7749|-117.8344
Ontario|OR|44.0266|-116.9629
Seattle|WA|47.6062|-122.3321
Bellingham|WA|48.7519|-122.4787
Ellensburg|WA|46.9965|-120.5478
Yakima|WA|46.6021|-120.5059
Moses Lake|WA|47.1301|-119.2781
Spokane|WA|47.6588|-117.4260
Coeur d'Alene|ID|47.6777|-116.7805
Boise|ID|43.6150|-116.2023
Twin Falls|ID|42.5630|-114.4609
Declo|ID|42.5230|-113.6300
Pocatello|ID|42.8713|-112.4455
Idaho Falls|ID|43.4917|-112.0339
Reno|NV|39.5296|-119.8138
Winnemucca|NV|40.9730|-117.7357
Elko|NV|40.8324|-115.7631
Las Vegas|NV|36.1699|-115.1398
Wendover|UT|40.7369|-114.0372
Salt Lake City|UT|40.7608|-111.8910
Ogden|UT|41.2230|-111.9738
Echo|UT|40.9716|-111.4402
Tremonton|UT|41.7113|-112.1652
Provo|UT|40.2338|-111.6585
Cove Fort|UT|38.5997|-112.5855
St. George|UT|37.0965|-113.5684
Green River|UT|38.9953|-110.1599
Kingman|AZ|35.1894|-114.0530
Flagstaff|AZ|35.1983|-111.6513
Phoenix|AZ|33.4484|-112.0740
Casa Grande|AZ|32.8795|-111.7574
Tucson|AZ|32.2226|-110.9747
Yuma|AZ|32.6927|-114.6277
Gila Bend|AZ|32.9478|-112.7168
Nogales|AZ|31.3404|-110.9343
Gallup|NM|35.5281|-108.7426
Albuquerque|NM|35.0844|-106.6504
Santa Fe|NM|35.6870|-105.9378
Las Vegas|NM|35.5939|-105.2239
Raton|NM|36.9034|-104.4391
Tucumcari|NM|35.1717|-103.7250
Las Cruces|NM|32.3199|-106.7637
Lordsburg|NM|32.3504|-108.7087
Grand Junction|CO|39.0639|-108.5506
Glenwood Springs|CO|39.5505|-107.3248
Denver|CO|39.7392|-104.9903
Limon|CO|39.2639|-103.6922
Colorado Springs|CO|38.8339|-104.8214
Pueblo|CO|38.2544|-104.6091
Fort Collins|CO|40.5853|-105.0844
Evanston|WY|41.2683|-110.9632
Rock Springs|WY|41.5875|-109.2029
Rawlins|WY|41.7911|-107.2387
Laramie|WY|41.3114|-105.5911
Cheyenne|WY|41.1400|-104.8202
Casper|WY|42.8666|-106.3131
Buffalo|WY|44.3483|-106.6989
Sheridan|WY|44.7972|-106.9562
Gillette|WY|44.2911|-105.5022
Butte|MT|46.0038|-112.5348
Helena|MT|46.5891|-112.0391
Great Falls|MT|47.5053|-111.3008
Missoula|MT|46.8721|-113.9940
Bozeman|MT|45.6770|-111.0429
Billings|MT|45.7833|-108.5007
Glendive|MT|47.1053|-104.7125
Bismarck|ND|46.8083|-100.7837
Fargo|ND|46.8772|-96.7898
Rapid City|SD|44.0805|-103.2310
Chamberlain|SD|43.8108|-99.3307
Sioux Falls|SD|43.5446|-96.7311
Big Springs|NE|41.0636|-102.0735
North Platte|NE|41.1403|-100.7601
Kearney|NE|40.6993|-99.0832
Grand Island|NE|40.9264|-98.3420
Lincoln|NE|40.8136|-96.7026
Omaha|NE|41.2565|-95.9345
Colby|KS|39.3958|-101.0524
Hays|KS|38.8792|-99.3268
Salina|KS|38.8403|-97.6114
Topeka|KS|39.0473|-95.6752
Wichita|KS|37.6872|-97.3301
Emporia|KS|38.4039|-96.1817
Oklahoma City|OK|35.4676|-97.5164
Tulsa|OK|36.1540|-95.9928
Amarillo|TX|35.2220|-101.8313
Lubbock|TX|33.5779|-101.8552
Wichita Falls|TX|33.9137|-98.4934
Dallas|TX|32.7767|-96.7970
Fort Worth|TX|32.7555|-97.3308
Denton|TX|33.2148|-97.1331
Waco|TX|31.5493|-97.1467
Austin|TX|30.2672|-97.7431
San Antonio|TX|29.4241|-98.4936
Laredo|TX|27.5306|-99.4803
Corpus Christi|TX|27.8006|-97.3964
Houston|TX|29.7604|-95.3698
Beaumont|TX|30.0802|-94.1266
El Paso|TX|31.7619|-106.4850
Van Horn|TX|31.0399|-104.8307
I-10/I-20 Junction|TX|31.0710|-104.0350
Fort Stockton|TX|30.8940|-102.8793
Junction|TX|30.4894|-99.7720
Pecos|TX|31.4229|-103.4932
Odessa|TX|31.8457|-102.3676
Midland|TX|31.9973|-102.0779
Abilene|TX|32.4487|-99.7331
Tyler|TX|32.3513|-95.3011
Texarkana|TX|33.4251|-94.0477
Little Rock|AR|34.7465|-92.2896
Fort Smith|AR|35.3859|-94.3985
Shreveport|LA|32.5252|-93.7502
Monroe|LA|32.5093|-92.1193
Alexandria|LA|31.3113|-92.4451
Lake Charles|LA|30.2266|-93.2174
Lafayette|LA|30.2241|-92.0198
Baton Rouge|LA|30.4515|-91.1871
Hammond|LA|30.5044|-90.4612
New Orleans|LA|29.9511|-90.0715
Slidell|LA|30.2752|-89.7812
Jackson|MS|32.2988|-90.1848
Meridian|MS|32.3643|-88.7037
Hattiesburg|MS|31.3271|-89.2903
Tupelo|MS|34.2576|-88.7034
Mobile|AL|30.6954|-88.0399
Montgomery|AL|32.3792|-86.3077
Birmingham|AL|33.5186|-86.8104
Pensacola|FL|30.4213|-87.2169
Tallahassee|FL|30.4383|-84.2807
Lake City|FL|30.1897|-82.6393
Jacksonville|FL|30.3322|-81.6557
Daytona Beach|FL|29.2108|-81.0228
Orlando|FL|28.5383|-81.3792
Tampa|FL|27.9506|-82.4572
Ocala|FL|29.1872|-82.1401
Naples|FL|26.1420|-81.7948
Miami|FL|25.7617|-80.1918
West Palm Beach|FL|26.7153|-80.0534
Atlanta|GA|33.7490|-84.3880
Macon|GA|32.8407|-83.6324
Valdosta|GA|30.8327|-83.2785
Savannah|GA|32.0809|-81.0912
Augusta|GA|33.4735|-82.0105
Columbia|SC|34.0007|-81.0348
Florence|SC|34.1954|-79.7626
Spartanburg|SC|34.9496|-81.9320
Greenville|SC|34.8526|-82.3940
Charleston|SC|32.7765|-79.9311
Charlotte|NC|35.2271|-80.8431
Statesville|NC|35.7826|-80.8873
Winston-Salem|NC|36.0999|-80.2442
Greensboro|NC|36.0726|-79.7920
Durham|NC|35.9940|-78.8986
Raleigh|NC|35.7796|-78.6382
Benson|NC|35.3821|-78.5486
Fayetteville|NC|35.0527|-78.8784
Rocky Mount|NC|35.9382|-77.7905
Wilmington|NC|34.2257|-77.9447
Asheville|NC|35.5951|-82.5515
Memphis|TN|35.1495|-90.0490
Jackson|TN|35.6145|-88.8139
Nashville|TN|36.1627|-86.7816
Knoxville|TN|35.9606|-83.9207
Chattanooga|TN|35.0456|-85.3097
Dandridge|TN|36.0154|-83.4152
Kingsport|TN|36.4850|-82.4700
Bristol|TN|36.5951|-82.1887
Louisville|KY|38.2527|-85.7585
Lexington|KY|38.0406|-84.5037
Paducah|KY|37.0834|-88.6000
Wytheville|VA|36.9485|-81.0848
Roanoke|VA|37.2710|-79.9414
Staunton|VA|38.1496|-79.0717
Harrisonburg|VA|38.4496|-78.8689
Winchester|VA|39.1857|-78.1633
Charlottesville|VA|38.0293|-78.4767
Richmond|VA|37.5407|-77.4360
Norfolk|VA|36.8508|-76.2859
Petersburg|VA|37.2279|-77.4019
Charleston|WV|38.3498|-81.6326
Beckley|WV|37.7782|-81.1882
Morgantown|WV|39.6295|-79.9559
Wheeling|WV|40.0640|-80.7209
Parkersburg|WV|39.2667|-81.5615
Cleveland|OH|41.4993|-81.6944
Elyria|OH|41.3684|-82.1076
Akron|OH|41.0814|-81.5190
Youngstown|OH|41.0998|-80.6495
Cambridge|OH|40.0312|-81.5885
Columbus|OH|39.9612|-82.9988
Dayton|OH|39.7589|-84.1916
Cincinnati|OH|39.1031|-84.5120
Toledo|OH|41.6528|-83.5379
Indianapolis|IN|39.7684|-86.1581
Gary|IN|41.5934|-87.3464
South Bend|IN|41.6764|-86.2520
Fort Wayne|IN|41.0793|-85.1394
Terre Haute|IN|39.4667|-87.4139
Evansville|IN|37.9716|-87.5711
Chicago|IL|41.8781|-87.6298
Joliet|IL|41.5250|-88.0817
Rockford|IL|42.2711|-89.0940
LaSalle|IL|41.3333|-89.0917
Peoria|IL|40.6936|-89.5890
Bloomington|IL|40.4842|-88.9937
Champaign|IL|40.1164|-88.2434
Springfield|IL|39.7817|-89.6501
Effingham|IL|39.1200|-88.5434
Mount Vernon|IL|38.3173|-88.9031
Marion|IL|37.7306|-88.9331
St. Louis|MO|38.6270|-90.1994
Kansas City|MO|39.0997|-94.5786
Columbia|MO|38.9517|-92.3341
Springfield|MO|37.2090|-93.2923
Joplin|MO|37.0842|-94.5133
Sikeston|MO|36.8767|-89.5879
Des Moines|IA|41.5868|-93.6250
Iowa City|IA|41.6611|-91.5302
Davenport|IA|41.5236|-90.5776
Sioux City|IA|42.4999|-96.4003
Minneapolis|MN|44.9778|-93.2650
Albert Lea|MN|43.6480|-93.3683
Duluth|MN|46.7867|-92.1005
St. Cloud|MN|45.5579|-94.1632
Madison|WI|43.0731|-89.4012
Milwaukee|WI|43.0389|-87.9065
Tomah|WI|43.9786|-90.5040
Eau Claire|WI|44.8113|-91.4985
La Crosse|WI|43.8014|-91.2396
Green Bay|WI|44.5133|-88.0133
Detroit|MI|42.3314|-83.0458
Kalamazoo|MI|42.2917|-85.5872
Marshall|MI|42.2723|-84.9633
Jackson|MI|42.2459|-84.4013
Lansing|MI|42.7325|-84.5555
Grand Rapids|MI|42.9634|-85.6681
Flint|MI|43.0125|-83.6875
Port Huron|MI|42.9709|-82.4249
Mackinaw City|MI|45.7775|-84.7271
Sault Ste. Marie|MI|46.4953|-84.3453
Pittsburgh|PA|40.4406|-79.9959
Washington|PA|40.1740|-80.2462
New Stanton|PA|40.2187|-79.6095
Breezewood|PA|40.0009|-78.2428
Harrisburg|PA|40.2732|-76.8867
Philadelphia|PA|39.9526|-75.1652
Allentown|PA|40.6084|-75.4902
Hazleton|PA|40.9584|-75.9746
Scranton|PA|41.4090|-75.6624
Stroudsburg|PA|40.9868|-75.1946
Clearfield|PA|41.0273|-78.4392
Erie|PA|42.1292|-80.0851
Baltimore|MD|39.2904|-76.6122
Frederick|MD|39.4143|-77.4105
Hagerstown|MD|39.6418|-77.7200
Hancock|MD|39.6990|-78.1797
Washington|DC|38.9072|-77.0369
Wilmington|DE|39.7391|-75.5398
New York|NY|40.7128|-74.0060
Newburgh|NY|41.5034|-74.0104
Albany|NY|42.6526|-73.7562
Binghamton|NY|42.0987|-75.9180
Syracuse|NY|43.0481|-76.1474
Rochester|NY|43.1566|-77.6088
Buffalo|NY|42.8864|-78.8784
Watertown|NY|43.9748|-75.9108
Plattsburgh|NY|44.6995|-73.4529
New Haven|CT|41.3083|-72.9279
Hartford|CT|41.7658|-72.6734
Providence|RI|41.8240|-71.4128
Boston|MA|42.3601|-71.0589
Springfield|MA|42.1015|-72.5898
Sturbridge|MA|42.1084|-72.0787
White River Junction|VT|43.6490|-72.3193
Burlington|VT|44.4759|-73.2121
Concord|NH|43.2081|-71.5376
Portland|ME|43.6591|-70.2568
Bangor|ME|44.8016|-68.7712
Houlton|ME|46.1262|-67.8403
`;

const EDGES = `
# I-5
san-diego-ca los-angeles-ca I-5 120 33.1959,-117.3795 33.6846,-117.8265
los-angeles-ca wheeler-ridge-ca I-5 ~m 34.3917,-118.5426 34.8417,-118.8648
wheeler-ridge-ca kettleman-city-ca I-5 ~f 35.4005,-119.4696
kettleman-city-ca santa-nella-ca I-5 ~f
santa-nella-ca tracy-ca I-5 ~f
tracy-ca sacramento-ca I-5 ~f 37.8100,-121.2900 37.9577,-121.2908
sacramento-ca redding-ca I-5 162 39.1546,-122.1494 39.9277,-122.1792
redding-ca medford-or I-5 ~m 41.3099,-122.3106 41.7354,-122.6345 42.1946,-122.7095
medford-or eugene-or I-5 ~m 42.4390,-123.3284 42.9279,-123.2812 43.2165,-123.3417 43.7976,-123.0595
eugene-or portland-or I-5 110 44.6365,-123.1059 44.9429,-123.0351
portland-or seattle-wa I-5 174 46.1468,-122.9084 46.7162,-122.9543 47.0379,-122.9007 47.2529,-122.4443
seattle-wa bellingham-wa I-5 89 47.9790,-122.2021 48.0518,-122.1771 48.4201,-122.3340
tracy-ca san-francisco-ca I-580 ~r 37.6819,-121.7680 37.7030,-121.9358 37.8044,-122.2712
# I-8, I-19
san-diego-ca el-centro-ca I-8 ~m 32.8351,-116.7664 32.7389,-115.9939
el-centro-ca yuma-az I-8 ~f
yuma-az gila-bend-az I-8 ~f 32.7981,-113.5413
gila-bend-az casa-grande-az I-8 ~f
tucson-az nogales-az I-19 ~f
# I-10
los-angeles-ca ontario-ca I-10 ~f
ontario-ca indio-ca I-10 ~r 34.0556,-117.1825 33.9253,-116.8764 33.9000,-116.5500
indio-ca blythe-ca I-10 ~f 33.7125,-115.4014
blythe-ca phoenix-az I-10 ~f 33.6639,-114.2299 33.4906,-112.9368
phoenix-az casa-grande-az I-10 ~f
casa-grande-az tucson-az I-10 ~f
tucson-az lordsburg-nm I-10 ~r 31.9679,-110.2945 32.2529,-109.8320
lordsburg-nm las-cruces-nm I-10 ~f 32.2687,-107.7586
las-cruces-nm el-paso-tx I-10 45
el-paso-tx van-horn-tx I-10 120 31.1746,-105.3572
van-horn-tx i-10-i-20-junction-tx I-10 ~f
i-10-i-20-junction-tx fort-stockton-tx I-10 ~f
fort-stockton-tx junction-tx I-10 ~r 30.7102,-101.2007 30.5669,-100.6434
junction-tx san-antonio-tx I-10 ~r 30.0474,-99.1403 29.7947,-98.7320
san-antonio-tx houston-tx I-10 197 29.5688,-97.9647 29.7066,-96.5397
houston-tx beaumont-tx I-10 85 29.8202,-94.3838
beaumont-tx lake-charles-la I-10 ~f 30.0930,-93.7366
lake-charles-la lafayette-la I-10 ~f 30.2224,-92.6571
lafayette-la baton-rouge-la I-10 55
baton-rouge-la new-orleans-la I-10 80 30.2385,-90.9201 30.0666,-90.4801 29.9941,-90.2417
new-orleans-la slidell-la I-10 ~f
slidell-la mobile-al I-10 ~f 30.4300,-89.0928 30.4400,-88.8853 30.4100,-88.5500
mobile-al pensacola-fl I-10 ~f
pensacola-fl tallahassee-fl I-10 ~r 30.7621,-86.5705 30.7210,-86.1152 30.7744,-85.2269
tallahassee-fl lake-city-fl I-10 ~f
lake-city-fl jacksonville-fl I-10 ~f
# I-12, I-55
baton-rouge-la hammond-la I-12 ~f
hammond-la slidell-la I-12 ~f
new-orleans-la hammond-la I-55+I-10 ~f 30.0666,-90.4801
hammond-la jackson-ms I-55 ~f 31.2438,-90.4532 31.5791,-90.4406
jackson-ms memphis-tn I-55 ~f 33.7690,-89.8084 34.3115,-89.9442
memphis-tn sikeston-mo I-55 ~f 35.9273,-89.9190 36.2334,-89.7493
sikeston-mo st-louis-mo I-55 ~r 37.3059,-89.5181 37.7242,-89.8612 38.2206,-90.3960
st-louis-mo springfield-il I-55 ~f 39.1753,-89.6540
springfield-il bloomington-il I-55 ~f 40.1484,-89.3648
bloomington-il joliet-il I-55 ~f 40.8809,-88.6298 41.0945,-88.4259
joliet-il chicago-il I-55 ~f
# I-15
san-diego-ca ontario-ca I-15 ~r 33.1192,-117.0864 33.4936,-117.1484
ontario-ca barstow-ca I-15 ~m 34.5362,-117.2928
barstow-ca las-vegas-nv I-15 155 35.2650,-116.0750 35.6100,-115.3880
las-vegas-nv st-george-ut I-15 120 36.8055,-114.0672
st-george-ut cove-fort-ut I-15 ~r 37.6775,-113.0619 38.2769,-112.6411
cove-fort-ut provo-ut I-15 ~r 38.9683,-112.3233 39.2447,-112.1016 39.7102,-111.8363
provo-ut salt-lake-city-ut I-15 45
salt-lake-city-ut ogden-ut I-15 ~f
ogden-ut tremonton-ut I-15+I-84 ~f
tremonton-ut pocatello-id I-15 ~r 42.1916,-112.2508 42.6499,-112.1936
pocatello-id idaho-falls-id I-15 ~f
idaho-falls-id butte-mt I-15 ~m 44.1758,-112.2311 44.5622,-112.3128 45.2163,-112.6375
butte-mt helena-mt I-15 ~m 46.2366,-112.1208
helena-mt great-falls-mt I-15 ~r 46.9949,-112.0697 47.2719,-111.7002
# I-17
phoenix-az flagstaff-az I-17 145 34.3297,-112.1174 34.5636,-111.8543
# I-40
barstow-ca needles-ca I-40 ~f 34.7211,-116.1603 34.7339,-115.2436
needles-ca kingman-az I-40 ~r 34.7200,-114.4900 34.8700,-114.1500
kingman-az flagstaff-az I-40 147 35.3256,-112.8738 35.2495,-112.1910
flagstaff-az gallup-nm I-40 185 35.0242,-110.6974 34.9022,-110.1582
gallup-nm albuquerque-nm I-40 138 35.1473,-107.8514
albuquerque-nm tucumcari-nm I-40 173 35.0100,-105.6700 34.9387,-104.6825
tucumcari-nm amarillo-tx I-40 ~f
amarillo-tx oklahoma-city-ok I-40 260 35.2148,-100.2490 35.4112,-99.4043 35.5156,-98.9673
oklahoma-city-ok fort-smith-ar I-40 ~r 35.4398,-95.9819 35.4604,-94.7875
fort-smith-ar little-rock-ar I-40 ~r 35.2784,-93.1338 35.0887,-92.4421
little-rock-ar memphis-tn I-40 137 34.8876,-91.1946 35.0082,-90.7898
memphis-tn jackson-tn I-40 ~f
jackson-tn nashville-tn I-40 ~r 36.0300,-87.3878
nashville-tn knoxville-tn I-40 180 36.1628,-85.5016 35.9489,-85.0269
knoxville-tn dandridge-tn I-40 ~r
dandridge-tn asheville-nc I-40 ~m 35.9670,-83.1877 35.8159,-83.1459 35.5329,-82.8374
asheville-nc statesville-nc I-40 ~r 35.6840,-82.0093 35.7454,-81.6848 35.7332,-81.3412
statesville-nc winston-salem-nc I-40 ~r
winston-salem-nc greensboro-nc I-40 ~f
greensboro-nc durham-nc I-40+I-85 ~r 36.0957,-79.4378
durham-nc raleigh-nc I-40 ~f
raleigh-nc benson-nc I-40 ~f
benson-nc wilmington-nc I-40 ~f
# I-25
las-cruces-nm albuquerque-nm I-25 225 33.1284,-107.2528 34.0584,-106.8914
albuquerque-nm santa-fe-nm I-25 ~r
santa-fe-nm las-vegas-nm I-25 ~m
las-vegas-nm raton-nm I-25 ~r 36.0087,-104.7030 36.3614,-104.5950
raton-nm pueblo-co I-25 ~r 37.1695,-104.5005 37.6247,-104.7803
pueblo-co colorado-springs-co I-25 ~f
colorado-springs-co denver-co I-25 ~r
denver-co fort-collins-co I-25 ~f
fort-collins-co cheyenne-wy I-25 ~f
cheyenne-wy casper-wy I-25 ~r 42.0541,-104.9527 42.7597,-105.3822
casper-wy buffalo-wy I-25 ~r 43.7111,-106.6378
# I-70
cove-fort-ut green-river-ut I-70 ~m 38.7725,-112.0841 38.9578,-111.8599 38.7800,-111.4000 38.8600,-110.7500
green-river-ut grand-junction-co I-70 ~f 38.9700,-109.7170 39.1533,-108.7373
grand-junction-co glenwood-springs-co I-70 ~r 39.4517,-108.0526 39.5347,-107.7831
glenwood-springs-co denver-co I-70 ~m 39.6403,-106.3742 39.6296,-106.0714 39.7425,-105.5136
denver-co limon-co I-70 ~f
limon-co colby-ks I-70 ~f 39.3061,-102.2694 39.3508,-101.7101
colby-ks hays-ks I-70 ~f 39.0250,-99.8796
hays-ks salina-ks I-70 ~f 38.8953,-98.8598
salina-ks topeka-ks I-70 ~f 38.9172,-97.2139 39.0286,-96.8314
topeka-ks kansas-city-mo I-70 ~f 39.0000,-95.2350
kansas-city-mo columbia-mo I-70 ~r 38.9833,-93.5700 38.9736,-92.7432
columbia-mo st-louis-mo I-70 ~r 38.9600,-91.9400 38.8114,-90.8529
st-louis-mo effingham-il I-70 ~f 38.9606,-89.0937
effingham-il terre-haute-in I-70 ~f
terre-haute-in indianapolis-in I-70 ~f
indianapolis-in dayton-oh I-70 ~f 39.8289,-84.8902
dayton-oh columbus-oh I-70 ~f
columbus-oh cambridge-oh I-70 ~r 39.9403,-82.0132
cambridge-oh wheeling-wv I-70 ~r
wheeling-wv washington-pa I-70 ~r
washington-pa new-stanton-pa I-70 ~r
new-stanton-pa breezewood-pa I-70+I-76 ~m 40.0084,-79.0781 40.0187,-78.5039
breezewood-pa hancock-md I-70 ~r
hancock-md hagerstown-md I-70 ~r
hagerstown-md frederick-md I-70 ~r
frederick-md baltimore-md I-70 ~r
washington-dc frederick-md I-270 ~r
# I-76
denver-co big-springs-ne I-76 ~f 40.2503,-103.7999 40.6255,-103.2077 40.9883,-102.2643
akron-oh youngstown-oh I-76 ~f
youngstown-oh pittsburgh-pa I-76 ~r 40.8500,-80.3300 40.6846,-80.1059
pittsburgh-pa new-stanton-pa I-76 ~r 40.4212,-79.7881
breezewood-pa harrisburg-pa I-76 ~m 40.2015,-77.1889
harrisburg-pa philadelphia-pa I-76 ~r 40.1800,-76.2400 40.1554,-75.8866 40.1000,-75.4200
# I-80
san-francisco-ca sacramento-ca I-80 87 38.1041,-122.2566 38.2494,-122.0400 38.5449,-121.7405
sacramento-ca reno-nv I-80 132 38.8966,-121.0769 39.3280,-120.1833
reno-nv winnemucca-nv I-80 165 39.6080,-119.2518 40.1794,-118.4735
winnemucca-nv elko-nv I-80 125 40.6421,-116.9343 40.7138,-116.1040
elko-nv wendover-ut I-80 ~r 41.1116,-114.9645
wendover-ut salt-lake-city-ut I-80 ~f
salt-lake-city-ut echo-ut I-80 ~m 40.7606,-111.6261 40.7216,-111.5400
echo-ut evanston-wy I-80 ~r
evanston-wy rock-springs-wy I-80 ~r 41.3178,-110.3871 41.5283,-109.4662
rock-springs-wy rawlins-wy I-80 ~r 41.6713,-107.9781
rawlins-wy laramie-wy I-80 ~r 41.7600,-106.8000 41.5950,-106.2100
laramie-wy cheyenne-wy I-80 ~m
cheyenne-wy big-springs-ne I-80 ~f 41.1822,-104.0691 41.1428,-102.9780
big-springs-ne north-platte-ne I-80 ~f
north-platte-ne kearney-ne I-80 ~f 40.9294,-100.1607 40.7808,-99.7415
kearney-ne grand-island-ne I-80 ~f
grand-island-ne lincoln-ne I-80 ~f 40.8681,-97.5920
lincoln-ne omaha-ne I-80 ~f
omaha-ne des-moines-ia I-80 ~r 41.4769,-95.3380 41.5003,-94.6433
des-moines-ia iowa-city-ia I-80 ~r 41.6997,-93.0480 41.7000,-92.7224
iowa-city-ia davenport-ia I-80 ~f
davenport-ia lasalle-il I-80 ~f 41.4528,-90.1543 41.3900,-89.4648
lasalle-il joliet-il I-80 ~f 41.3456,-88.8426 41.3600,-88.4200
joliet-il gary-in I-80 ~f
gary-in south-bend-in I-80+I-90 ~f
south-bend-in toledo-oh I-80+I-90 ~f 41.6820,-85.9767 41.6348,-84.9994
toledo-oh elyria-oh I-80+I-90 ~f
elyria-oh youngstown-oh I-80 ~f
youngstown-oh clearfield-pa I-80 ~r 41.2273,-80.2395 41.1612,-79.0831
clearfield-pa hazleton-pa I-80 ~m 40.9400,-77.7900 41.0120,-76.8478 41.0037,-76.4550
hazleton-pa stroudsburg-pa I-80 ~r
stroudsburg-pa new-york-ny I-80 ~r 40.8579,-74.4260
# I-84 (west), I-82, I-86
ogden-ut echo-ut I-84 ~m 41.1430,-111.7913 41.0361,-111.6766
portland-or the-dalles-or I-84 ~r 45.5393,-122.3873 45.6698,-121.8906 45.7054,-121.5215
the-dalles-or hermiston-or I-84 ~f 45.7193,-120.1997 45.8399,-119.7006
hermiston-or pendleton-or I-84 ~f
pendleton-or la-grande-or I-84 ~m 45.5093,-118.4261
la-grande-or baker-city-or I-84 ~r
baker-city-or ontario-or I-84 ~r 44.3510,-117.2663
ontario-or boise-id I-84 ~f
boise-id twin-falls-id I-84 ~f 43.1330,-115.6912 42.9300,-114.9500
twin-falls-id declo-id I-84 ~f
declo-id tremonton-ut I-84 ~r 41.9652,-112.7108
declo-id pocatello-id I-86 ~f 42.7863,-112.8544
hermiston-or yakima-wa I-82 ~r 46.2112,-119.1372 46.2068,-119.7689 46.3238,-120.0087
yakima-wa ellensburg-wa I-82 ~m
# I-90
seattle-wa ellensburg-wa I-90 107 47.4957,-121.7868 47.4245,-121.4137
ellensburg-wa moses-lake-wa I-90 ~f 46.9500,-119.9800
moses-lake-wa spokane-wa I-90 ~f 47.1274,-118.3800 47.3007,-117.9758
spokane-wa coeur-d-alene-id I-90 ~f
coeur-d-alene-id missoula-mt I-90 ~m 47.4741,-115.9280 47.1916,-114.8918
missoula-mt butte-mt I-90 ~m 46.6666,-113.1473 46.3955,-112.7300
butte-mt bozeman-mt I-90 ~m 45.8927,-111.5522
bozeman-mt billings-mt I-90 ~r 45.6621,-110.5610 45.8341,-109.9532
billings-mt sheridan-wy I-90 ~r 45.7319,-107.6120 45.6016,-107.4609
sheridan-wy buffalo-wy I-90 ~r
buffalo-wy gillette-wy I-90 ~r
gillette-wy rapid-city-sd I-90 ~r 44.2636,-104.9502 44.4064,-104.3758 44.4908,-103.8594 44.4097,-103.5091
rapid-city-sd chamberlain-sd I-90 ~f 43.9925,-102.2410 43.8883,-100.7121
chamberlain-sd sioux-falls-sd I-90 ~f 43.7094,-98.0298
sioux-falls-sd albert-lea-mn I-90 ~f 43.6200,-95.5964 43.6522,-94.4611
albert-lea-mn la-crosse-wi I-90 ~r 43.6666,-92.9746 43.9000,-92.4600 43.9700,-92.0600
la-crosse-wi tomah-wi I-90 ~r
tomah-wi madison-wi I-90+I-94 ~f 43.7972,-90.0774 43.6275,-89.7710
madison-wi rockford-il I-90+I-39 ~f 42.6828,-89.0187 42.5083,-89.0318
rockford-il chicago-il I-90 ~f 42.0354,-88.2826
chicago-il gary-in I-90+I-94 ~f
elyria-oh cleveland-oh I-90 ~f
cleveland-oh erie-pa I-90 ~f 41.8651,-80.7898
erie-pa buffalo-ny I-90 ~f 42.3223,-79.5781 42.4801,-79.3339
buffalo-ny rochester-ny I-90 ~f 42.9981,-78.1875
rochester-ny syracuse-ny I-90 ~f
syracuse-ny albany-ny I-90 ~r 43.1009,-75.2327 42.9387,-74.1882
albany-ny springfield-ma I-90 ~m 42.3043,-73.2482
springfield-ma sturbridge-ma I-90 ~r
sturbridge-ma boston-ma I-90 ~r 42.2100,-71.8000 42.2793,-71.4162
# I-94, I-96, I-43
billings-mt glendive-mt I-94 ~f 46.4083,-105.8406
glendive-mt bismarck-nd I-94 ~r 46.8792,-102.7896
bismarck-nd fargo-nd I-94 ~f 46.9105,-98.7084 46.9233,-98.0032
fargo-nd st-cloud-mn I-94 ~f 46.2830,-96.0776 45.8852,-95.3775
st-cloud-mn minneapolis-mn I-94 ~f
minneapolis-mn eau-claire-wi I-94 ~r 44.9747,-92.7569 44.8755,-91.9193
eau-claire-wi tomah-wi I-94 ~f 44.2947,-90.8515
madison-wi milwaukee-wi I-94 ~f
milwaukee-wi chicago-il I-94 ~f 42.5800,-87.9500
gary-in kalamazoo-mi I-94 ~f 41.7075,-86.8950 42.1167,-86.4542
kalamazoo-mi marshall-mi I-94 ~f 42.3000,-85.1800
marshall-mi jackson-mi I-94 ~f
jackson-mi detroit-mi I-94 ~f 42.2808,-83.7430
lansing-mi detroit-mi I-96 ~f
lansing-mi grand-rapids-mi I-96 ~f
milwaukee-wi green-bay-wi I-43 ~f 43.7508,-87.7145 44.0886,-87.6576
# I-29
kansas-city-mo omaha-ne I-29 ~f 39.7675,-94.8467 40.4100,-95.5200
omaha-ne sioux-city-ia I-29 ~f 41.5564,-95.8875
sioux-city-ia sioux-falls-sd I-29 ~f
sioux-falls-sd fargo-nd I-29 ~f 44.3114,-96.7984 44.8994,-97.0500 45.6600,-96.9000
# I-35, I-135
laredo-tx san-antonio-tx I-35 ~f 28.4369,-99.2350
san-antonio-tx austin-tx I-35 80 29.7030,-98.1245 29.8833,-97.9414
austin-tx waco-tx I-35 ~f 31.0982,-97.3428
waco-tx dallas-tx I-35 ~f 32.0110,-97.1300 32.3866,-96.8483
waco-tx fort-worth-tx I-35 ~f 32.0110,-97.1300 32.4065,-97.2120
dallas-tx denton-tx I-35 ~f
fort-worth-tx denton-tx I-35 ~f
denton-tx oklahoma-city-ok I-35 ~r 33.6259,-97.1333 34.1743,-97.1436 35.2226,-97.4395
oklahoma-city-ok wichita-ks I-35 ~f 36.2892,-97.2881 36.8045,-97.2828
wichita-ks emporia-ks I-35 ~f 37.8172,-96.8620 38.0389,-96.6378
emporia-ks kansas-city-mo I-35 ~f 38.6156,-95.2678 38.8814,-94.8191
kansas-city-mo des-moines-ia I-35 ~r 40.2684,-94.0283 41.0339,-93.7655
des-moines-ia albert-lea-mn I-35 ~f 42.0308,-93.6319 43.1380,-93.3796
albert-lea-mn minneapolis-mn I-35 ~f 44.0839,-93.2260 44.2950,-93.2688
minneapolis-mn duluth-mn I-35 ~f 46.0113,-92.9444
wichita-ks salina-ks I-135 ~f
# I-44, I-45, I-37, I-27
wichita-falls-tx oklahoma-city-ok I-44 ~f 34.6036,-98.3959 35.0526,-97.9364
oklahoma-city-ok tulsa-ok I-44 ~f 35.7487,-96.6586 35.8306,-96.3911
tulsa-ok joplin-mo I-44 ~f 36.6387,-95.1541 36.8745,-94.8775
joplin-mo springfield-mo I-44 ~f
springfield-mo st-louis-mo I-44 ~r 37.6806,-92.6638 37.9514,-91.7713 38.0628,-91.4035
dallas-tx houston-tx I-45 240 32.0954,-96.4689 30.9496,-95.9116 30.7235,-95.5508 30.3119,-95.4561
san-antonio-tx corpus-christi-tx I-37 ~f 28.3325,-98.1175
lubbock-tx amarillo-tx I-27 ~f 34.1848,-101.7068
# I-20, I-30, I-49
i-10-i-20-junction-tx pecos-tx I-20 ~f
pecos-tx odessa-tx I-20 ~f
odessa-tx midland-tx I-20 ~f
midland-tx abilene-tx I-20 ~f 32.2504,-101.4787 32.4709,-100.4059
abilene-tx fort-worth-tx I-20 ~f 32.3882,-98.9795 32.7593,-97.7973
fort-worth-tx dallas-tx I-30 ~f
dallas-tx tyler-tx I-20 ~f 32.7360,-96.2753 32.5565,-95.8633
tyler-tx shreveport-la I-20 ~f 32.5007,-94.7405 32.5449,-94.3674
shreveport-la monroe-la I-20 ~f 32.5232,-92.6379
monroe-la jackson-ms I-20 ~f 32.3526,-90.8779
jackson-ms meridian-ms I-20 ~f 32.3646,-89.4742
meridian-ms birmingham-al I-20+I-59 ~r 32.4863,-88.2964 33.2098,-87.5692
birmingham-al atlanta-ga I-20 147 33.6598,-85.8316 33.7448,-85.2880 33.7320,-84.9191
atlanta-ga augusta-ga I-20 ~r 33.5957,-83.4680 33.4707,-82.5046
augusta-ga columbia-sc I-20 ~r
columbia-sc florence-sc I-20 ~f
dallas-tx texarkana-tx I-30 ~f 33.1385,-95.6011 33.1568,-94.9683
texarkana-tx little-rock-ar I-30 ~f 33.6671,-93.5916 34.1209,-93.0538 34.5645,-92.5868
shreveport-la texarkana-tx I-49 ~f
shreveport-la alexandria-la I-49 ~f 31.7607,-93.0863
alexandria-la lafayette-la I-49 ~f 30.5335,-92.0815
kansas-city-mo joplin-mo I-49 ~f 38.2586,-94.3305 37.8392,-94.3547
# I-57, I-24, I-39, I-74
sikeston-mo marion-il I-57 ~f 37.0500,-89.2500
marion-il mount-vernon-il I-57 ~f
mount-vernon-il effingham-il I-57 ~f
effingham-il champaign-il I-57 ~f 39.4831,-88.3728 39.7992,-88.2831
champaign-il chicago-il I-57 ~f 41.1200,-87.8612
marion-il paducah-ky I-24 ~f 37.4153,-88.8978 37.1512,-88.7320
paducah-ky nashville-tn I-24 ~r 37.0500,-88.0800 36.5298,-87.3595
nashville-tn chattanooga-tn I-24 ~m 35.8456,-86.3903 35.4817,-86.0886 35.2401,-85.8391
bloomington-il lasalle-il I-39 ~f
lasalle-il rockford-il I-39 ~f
davenport-ia peoria-il I-74 ~f 40.9478,-90.3712
peoria-il bloomington-il I-74 ~f
bloomington-il champaign-il I-74 ~f
champaign-il indianapolis-in I-74 ~f 40.1245,-87.6300 40.0411,-86.8745
indianapolis-in cincinnati-oh I-74 ~f 39.5214,-85.7769 39.3373,-85.4836
# I-64
st-louis-mo mount-vernon-il I-64 ~f
mount-vernon-il evansville-in I-64 ~f 38.2500,-87.5700
evansville-in louisville-ky I-64 ~r 38.2500,-87.5700 38.2120,-86.1219
louisville-ky lexington-ky I-64 ~r 38.1700,-84.8733
lexington-ky charleston-wv I-64 ~r 37.9901,-84.1797 38.1840,-83.4327 38.3326,-82.9488 38.4192,-82.4452
charleston-wv beckley-wv I-64+I-77 ~m
beckley-wv staunton-va I-64 ~m 37.8018,-80.4456 37.7935,-79.9939 37.7840,-79.4428
staunton-va charlottesville-va I-64 ~m
charlottesville-va richmond-va I-64 ~r
richmond-va norfolk-va I-64 ~f 37.2707,-76.7075
# I-65, I-69
mobile-al montgomery-al I-65 ~r 31.4335,-86.9569 31.8296,-86.6178
montgomery-al birmingham-al I-65 ~r
birmingham-al nashville-tn I-65 ~r 34.1748,-86.8436 34.6059,-86.9833 34.8029,-86.9717
nashville-tn louisville-ky I-65 ~r 36.9685,-86.4808 37.6940,-85.8591
louisville-ky indianapolis-in I-65 ~f 38.9592,-85.8903 39.2014,-85.9214
indianapolis-in gary-in I-65 ~f 40.4167,-86.8753 40.9367,-87.1509
evansville-in indianapolis-in I-69 ~r 38.6592,-87.1728 39.1653,-86.5264 39.4278,-86.4283
indianapolis-in fort-wayne-in I-69 ~f 40.1053,-85.6300 40.5500,-85.5500
fort-wayne-in marshall-mi I-69 ~f 41.6300,-85.0000 41.9403,-85.0005
marshall-mi lansing-mi I-69 ~f
lansing-mi flint-mi I-69 ~f
flint-mi port-huron-mi I-69 ~f
# I-71, I-75
cleveland-oh columbus-oh I-71 ~f 40.7584,-82.5154
columbus-oh cincinnati-oh I-71 ~f 39.5000,-83.7000
cincinnati-oh louisville-ky I-71 ~r 38.8756,-84.6102 38.6809,-85.1794
miami-fl naples-fl I-75 ~f 26.1004,-80.3998 26.1500,-81.3000
naples-fl tampa-fl I-75 ~f 26.6400,-81.8000 26.9800,-82.1000 27.3300,-82.4500
tampa-fl ocala-fl I-75 ~f 28.2397,-82.3279 28.8653,-82.0401
ocala-fl lake-city-fl I-75 ~f 29.6516,-82.3248
lake-city-fl valdosta-ga I-75 ~f
valdosta-ga macon-ga I-75 ~f 31.4505,-83.5085 31.9635,-83.7824
macon-ga atlanta-ga I-75 ~f 33.0343,-83.9382 33.4473,-84.1469
atlanta-ga chattanooga-tn I-75 ~r 34.1651,-84.7999 34.7698,-84.9702
chattanooga-tn knoxville-tn I-75 ~r 35.1595,-84.8766 35.4429,-84.5930
knoxville-tn lexington-ky I-75 ~m 36.5876,-84.1277 37.1290,-84.0833 37.5687,-84.2963
lexington-ky cincinnati-oh I-75 ~r
cincinnati-oh dayton-oh I-75 ~f
dayton-oh toledo-oh I-75 ~f 40.7426,-84.1052 41.0442,-83.6499
toledo-oh detroit-mi I-75 ~f
detroit-mi flint-mi I-75 ~f
flint-mi mackinaw-city-mi I-75 ~f 43.4195,-83.9508 44.2764,-84.2386 44.6614,-84.7148 45.0275,-84.6748
mackinaw-city-mi sault-ste-marie-mi I-75 ~f
# I-59, I-22, I-85, I-16, I-4
slidell-la hattiesburg-ms I-59 ~f 30.8402,-89.5342
hattiesburg-ms meridian-ms I-59 ~f 31.6941,-89.1306
birmingham-al chattanooga-tn I-59 ~r 34.0143,-86.0066 34.4442,-85.7197
birmingham-al tupelo-ms I-22 ~r 33.8312,-87.2775 34.1423,-87.9886
tupelo-ms memphis-tn I-22 ~f 34.4943,-89.0078 34.8700,-89.6900
montgomery-al atlanta-ga I-85 ~r 32.6099,-85.4808 33.0362,-85.0322
atlanta-ga greenville-sc I-85 ~r 34.2040,-83.4571 34.5800,-82.6500
greenville-sc spartanburg-sc I-85 ~f
spartanburg-sc charlotte-nc I-85 ~f 35.0718,-81.6498 35.2621,-81.1873
charlotte-nc greensboro-nc I-85 ~f 35.6710,-80.4742 35.8240,-80.2534
durham-nc petersburg-va I-85 ~r 36.3296,-78.3992 36.7265,-78.1289
macon-ga savannah-ga I-16 ~f 32.5407,-82.9038 32.3971,-82.0601
tampa-fl orlando-fl I-4 ~f 28.0395,-81.9498
orlando-fl daytona-beach-fl I-4 ~f
# I-95
miami-fl west-palm-beach-fl I-95 ~f 26.1224,-80.1373 26.3683,-80.1289
west-palm-beach-fl daytona-beach-fl I-95 ~f 27.2730,-80.3582 27.6400,-80.5000 28.0800,-80.7000 28.6122,-80.8076
daytona-beach-fl jacksonville-fl I-95 ~f 29.5845,-81.2079 29.9000,-81.4100
jacksonville-fl savannah-ga I-95 ~f 31.1499,-81.4915
savannah-ga florence-sc I-95 ~f 32.9052,-80.6668 33.4771,-80.4851 33.6952,-80.2109
florence-sc fayetteville-nc I-95 ~f 34.4165,-79.3712 34.6182,-79.0086
fayetteville-nc benson-nc I-95 ~f
benson-nc rocky-mount-nc I-95 ~f 35.7212,-77.9700
rocky-mount-nc petersburg-va I-95 ~f 36.4615,-77.6541 36.6860,-77.5425
petersburg-va richmond-va I-95 ~f
richmond-va washington-dc I-95 ~f 38.3032,-77.4605
washington-dc baltimore-md I-95 ~f
baltimore-md wilmington-de I-95 ~f 39.6068,-75.8333
wilmington-de philadelphia-pa I-95 ~f
philadelphia-pa new-york-ny I-95 ~f 40.2171,-74.7429 40.4800,-74.4300
new-york-ny new-haven-ct I-95 ~f 41.0534,-73.5387 41.1865,-73.1952
new-haven-ct providence-ri I-95 ~f 41.3557,-72.0995
providence-ri boston-ma I-95 ~f
boston-ma portland-me I-95 ~f 43.0718,-70.7626
portland-me bangor-me I-95 ~f 44.3106,-69.7795 44.5520,-69.6317
bangor-me houlton-me I-95 ~r 45.6100,-68.5300 45.8700,-68.3800
# I-26, I-77, I-79, I-68
charleston-sc columbia-sc I-26 ~f
columbia-sc spartanburg-sc I-26 ~r
spartanburg-sc asheville-nc I-26 ~m
asheville-nc kingsport-tn I-26 ~m 36.1451,-82.4168 36.3134,-82.3535
columbia-sc charlotte-nc I-77 ~f 34.9249,-81.0251
charlotte-nc statesville-nc I-77 ~f
statesville-nc wytheville-va I-77 ~m 36.2443,-80.8484 36.6668,-80.6970
wytheville-va beckley-wv I-77 ~m 37.1010,-81.1162 37.3662,-81.1026
charleston-wv parkersburg-wv I-77 ~r 38.8187,-81.7107
parkersburg-wv cambridge-oh I-77 ~r 39.4151,-81.4548
cambridge-oh akron-oh I-77 ~r 40.4898,-81.4457 40.7989,-81.3784
akron-oh cleveland-oh I-77 ~f
charleston-wv morgantown-wv I-79 ~m 38.6651,-80.7107 39.2806,-80.3445
morgantown-wv washington-pa I-79 ~r
washington-pa pittsburgh-pa I-79 ~r
pittsburgh-pa erie-pa I-79 ~r 40.6846,-80.1059 41.6414,-80.1514
morgantown-wv hancock-md I-68 ~m 39.6800,-79.2400 39.6529,-78.7625
# I-81, I-83, I-78
dandridge-tn kingsport-tn I-81 ~r
kingsport-tn bristol-tn I-81 ~r
bristol-tn wytheville-va I-81 ~r 36.7098,-81.9773 36.8343,-81.5151
wytheville-va roanoke-va I-81 ~r 37.1318,-80.4089
roanoke-va staunton-va I-81 ~r 37.7840,-79.4428
staunton-va harrisonburg-va I-81 ~f
harrisonburg-va winchester-va I-81 ~f
winchester-va hagerstown-md I-81 ~f
hagerstown-md harrisburg-pa I-81 ~f 39.9376,-77.6611 40.2015,-77.1889
harrisburg-pa hazleton-pa I-81 ~r 40.5484,-76.3844
hazleton-pa scranton-pa I-81 ~r 41.2459,-75.8813
scranton-pa binghamton-ny I-81 ~r
binghamton-ny syracuse-ny I-81 ~r 42.6012,-76.1805
syracuse-ny watertown-ny I-81 ~f
baltimore-md harrisburg-pa I-83 ~r 39.9626,-76.7277
harrisburg-pa allentown-pa I-78 ~r 40.4500,-76.5200 40.5559,-75.9821
allentown-pa new-york-ny I-78 ~r 40.6368,-74.9099 40.5743,-74.6099
# I-84 (east), I-87, I-88, I-91, I-89, I-93
scranton-pa newburgh-ny I-84 ~r 41.3223,-74.8024 41.3751,-74.6927
newburgh-ny hartford-ct I-84 ~r 41.3948,-73.4540 41.5582,-73.0515
hartford-ct sturbridge-ma I-84 ~r
new-york-ny newburgh-ny I-87 ~r
newburgh-ny albany-ny I-87 ~f 41.9270,-73.9974
albany-ny plattsburgh-ny I-87 ~r 43.3095,-73.6440 43.8400,-73.7600
binghamton-ny albany-ny I-88 ~r 42.4529,-75.0638 42.6776,-74.4854
new-haven-ct hartford-ct I-91 ~f
hartford-ct springfield-ma I-91 ~f
springfield-ma white-river-junction-vt I-91 ~r 42.8509,-72.5579
white-river-junction-vt burlington-vt I-89 ~m 44.2601,-72.5754
concord-nh white-river-junction-vt I-89 ~r
boston-ma concord-nh I-93 ~f 42.9956,-71.4548
`;

type TerrainKey = keyof typeof ESTIMATION_FACTORS;
type LatLon = readonly [number, number];

const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;

function slug(name: string, state: string): string {
  const base = name
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base}-${state.toLowerCase()}`;
}

function rows(table: string): string[] {
  return table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function parseNodes() {
  return rows(NODES).map((row) => {
    const [name = '', state = '', lat = '', lon = ''] = row.split('|');
    return {
      id: slug(name, state),
      name,
      state,
      latitude: round4(Number(lat)),
      longitude: round4(Number(lon)),
    };
  });
}

type GraphNodeRow = ReturnType<typeof parseNodes>[number];

function parseLatLon(token: string): LatLon {
  const [lat, lon] = token.split(',').map(Number);
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    throw new Error(`bad shape point ${token}`);
  }
  return [round4(lat), round4(lon)];
}

function polylineMiles(points: readonly LatLon[]): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as LatLon;
    const b = points[i] as LatLon;
    miles += haversineMiles({ latitude: a[0], longitude: a[1] }, { latitude: b[0], longitude: b[1] });
  }
  return miles;
}

function parseEdges(nodeById: Map<string, GraphNodeRow>) {
  return rows(EDGES).map((row) => {
    const [from = '', to = '', names = '', milesToken = '', ...shapeTokens] = row.split(/\s+/);
    const a = nodeById.get(from);
    const b = nodeById.get(to);
    if (!a || !b) throw new Error(`unknown node in edge: ${row}`);
    const [interstate = '', ...concurrent] = names.split('+');
    const shape = shapeTokens.map(parseLatLon);
    const geometry: LatLon[] = [[a.latitude, a.longitude], ...shape, [b.latitude, b.longitude]];
    const geometryMiles = polylineMiles(geometry);
    const chordMiles = haversineMiles(a, b);
    const estimated = milesToken.startsWith('~');
    const terrainKey = milesToken.slice(1) as TerrainKey;
    if (estimated && !(terrainKey in ESTIMATION_FACTORS)) throw new Error(`bad terrain class: ${row}`);
    const factor = estimated ? ESTIMATION_FACTORS[terrainKey] : undefined;
    const miles = factor ? Math.round(geometryMiles * factor) : Number(milesToken);
    return {
      row,
      chordMiles,
      geometryMiles,
      edge: {
        from,
        to,
        interstate,
        ...(concurrent.length > 0 ? { concurrent } : {}),
        miles,
        miles_estimated: estimated,
        ...(factor ? { terrain: TERRAIN[terrainKey], estimation_factor: factor } : {}),
        ...(shape.length > 0 ? { shape } : {}),
      },
    };
  });
}

function assertConnected(
  nodes: readonly GraphNodeRow[],
  edges: readonly { from: string; to: string }[],
): void {
  const neighbours = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const { from, to } of edges) {
    neighbours.get(from)?.push(to);
    neighbours.get(to)?.push(from);
  }
  const start = nodes[0]?.id ?? '';
  const seen = new Set([start]);
  const queue = [start];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const next of neighbours.get(id) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const unreached = nodes.filter((node) => !seen.has(node.id)).map((node) => node.id);
  if (unreached.length > 0) throw new Error(`graph not connected; unreached: ${unreached.join(', ')}`);
}

function build(): void {
  const nodes = parseNodes();
  const nodeById = new Map(nodes.map((node) => [node.id, node]));
  if (nodeById.size !== nodes.length) throw new Error('duplicate node id');
  const parsed = parseEdges(nodeById);
  const edges = parsed.map((entry) => entry.edge);
  const pairs = new Set<string>();
  for (const { from, to } of edges) {
    const key = [from, to].sort().join('|');
    if (pairs.has(key)) throw new Error(`duplicate edge ${key}`);
    pairs.add(key);
  }
  assertConnected(nodes, edges);

  for (const { row, chordMiles, edge } of parsed) {
    const ratio = edge.miles / chordMiles;
    if (ratio < 1 || ratio > 1.6)
      throw new Error(`road/straight ratio ${ratio.toFixed(2)} out of range: ${row}`);
  }
  // Calibration report: how known road miles compare with their shape polyline, per terrain guess.
  const known = parsed.filter((entry) => !entry.edge.miles_estimated);
  const knownRatios = known.map((entry) => entry.edge.miles / entry.geometryMiles).sort((x, y) => x - y);
  console.log(
    `known edges: ${known.length}; road/shape ratio min ${knownRatios[0]?.toFixed(3)} median ${knownRatios[
      Math.floor(knownRatios.length / 2)
    ]?.toFixed(3)} max ${knownRatios.at(-1)?.toFixed(3)}`,
  );

  const graph = {
    version: GRAPH_VERSION,
    name: 'US Interstate backbone',
    generated_by: 'scripts/build-highway-graph.ts',
    sources: [
      'Junction and city coordinates: public gazetteer positions (city centres or the interchange), 4 decimals.',
      'Interstate numbering and the city sequence along each route: the public Interstate Highway System route logs.',
      'Road miles where miles_estimated is false: published city-to-city road distances along the named interstate, rounded to the mile.',
      'Road miles where miles_estimated is true: great-circle length through the shape points x estimation_factor of the terrain class.',
    ],
    estimation: {
      method: 'miles = round(great-circle miles along [from, ...shape, to] x factor)',
      factors: { flat: ESTIMATION_FACTORS.f, rolling: ESTIMATION_FACTORS.r, mountain: ESTIMATION_FACTORS.m },
    },
    nodes,
    edges,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(graph, null, 2)}\n`);
  // The committed file is in the project's Biome layout, so rebuilding an unchanged table is a no-op diff.
  execFileSync(BIOME, ['format', '--write', OUTPUT], { stdio: 'inherit' });
  const estimatedCount = edges.filter((edge) => edge.miles_estimated).length;
  console.log(`wrote ${OUTPUT}: ${nodes.length} nodes, ${edges.length} edges (${estimatedCount} estimated)`);
}

build();
